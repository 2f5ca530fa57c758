package dev.cpx.spi.support;

/**
 * {@code openat2(dir, path, how, sizeof how)} with {@code RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH}
 * (Linux 5.6): opens a directory several names below an open one in one call, never through a
 * symbolic link on the way nor out of it (what a walk does one {@code openat(O_NOFOLLOW)} at a
 * time). glibc 2.36 has no wrapper, so engines call it by number with {@link #how}; whether this
 * kernel has it is learnt from the first answer and kept for the run (an older kernel or a seccomp
 * filter says {@code ENOSYS} or {@code EPERM}), and then callers go one name at a time.
 *
 * @since 0.3.0
 */
public final class Openat2 {

    /** The system call's number: the same on every architecture (numbers from 424 on are shared). */
    public static final long NUMBER = 437;
    /** {@code sizeof(struct open_how)}: flags, mode, resolve, each 64 bits. */
    public static final int HOW_SIZE = 24;
    static final long RESOLVE_NO_SYMLINKS = 0x04;
    static final long RESOLVE_BENEATH = 0x08;

    private static volatile boolean available = true;

    private Openat2() {
    }

    /** Whether to try the call (false once the kernel said it has none, or may not make it). */
    public static boolean available() {
        return available;
    }

    /**
     * Takes note of the call's failure with {@code errno}: the call is not tried again where it does
     * not exist here or is filtered; true when the caller should go one name at a time instead.
     */
    public static boolean unsupported(int errno) {
        if (errno == Errno.ENOSYS || errno == Errno.EPERM) {
            available = false;
            return true;
        }
        return false;
    }

    /**
     * The {@code struct open_how} that opens a directory to list ({@link Fcntl#openDirectoryAt}) or,
     * {@code toWrite}, to make entries in ({@link Fcntl#openDirectoryToWriteAt}), without following a
     * link in its last name either: a new array each call, for an engine to keep.
     */
    public static byte[] how(boolean toWrite) {
        return how(toWrite ? Fcntl.openDirectoryToWriteAt(false) : Fcntl.openDirectoryAt(false));
    }

    /** The {@code struct open_how} for {@code flags} (no mode), resolving beneath and without symbolic links, in this machine's byte order. */
    static byte[] how(int flags) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(HOW_SIZE).order(java.nio.ByteOrder.nativeOrder());
        b.putLong(flags & 0xFFFFFFFFL).putLong(0).putLong(RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH);
        return b.array();
    }
}
