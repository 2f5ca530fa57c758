package dev.cpx.spi.support;

/**
 * The flags of {@code <fcntl.h>} the engines pass to the kernel (64-bit Linux, generic values).
 *
 * @since 0.2.0
 */
public final class Fcntl {

    public static final int AT_FDCWD = -100;
    public static final int AT_SYMLINK_NOFOLLOW = 0x100;
    public static final int AT_SYMLINK_FOLLOW = 0x400;
    /** Operate on the descriptor itself when the path is empty. */
    public static final int AT_EMPTY_PATH = 0x1000;
    public static final int O_RDONLY = 0;
    public static final int O_WRONLY = 01;
    public static final int O_RDWR = 02;
    public static final int O_CREAT = 0100;
    public static final int O_EXCL = 0200;
    public static final int O_TRUNC = 01000;
    public static final int O_NONBLOCK = 04000;
    public static final int O_DIRECTORY = 0200000;
    public static final int O_NOFOLLOW = 0400000;
    /** Only to name the file or directory in further calls: nothing is read, no read permission needed. */
    public static final int O_PATH = 010000000;
    public static final int O_CLOEXEC = 02000000;
    /** {@code __O_TMPFILE | O_DIRECTORY}. */
    public static final int O_TMPFILE = 020200000;

    /** {@link dev.cpx.spi.Descriptors#openDirectory}: to list and open entries in. */
    public static final int OPEN_DIRECTORY = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
    /** {@link dev.cpx.spi.Descriptors#openDirectoryToWrite}: to make entries in, nothing read. */
    public static final int OPEN_DIRECTORY_TO_WRITE = O_PATH | O_DIRECTORY | O_CLOEXEC;
    /** {@link dev.cpx.spi.Descriptors#openFile}: never follows a link, never waits. */
    public static final int OPEN_ENTRY = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
    /** A new unnamed file, readable so a copy can be verified. */
    public static final int CREATE_UNNAMED = O_TMPFILE | O_RDWR | O_CLOEXEC;
    /** {@code Descriptors.createFile}: a new file under its own name, read-write, never through a link. */
    public static final int CREATE_FILE = O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC;
    /** {@code Descriptors.openToWrite}: an existing file written in place, as GNU cp opens the destination it overwrites. */
    public static int openToWriteAt(boolean truncate) {
        return O_WRONLY | O_CLOEXEC | (truncate ? O_TRUNC : 0);
    }

    /** {@code renameat2}'s flag: fail with {@code EEXIST} rather than replace. */
    public static final int RENAME_NOREPLACE = 1;

    /** {@code Descriptors.openEntry}: a handle on the entry itself, a symbolic link included. */
    public static final int PIN_ENTRY = O_PATH | O_NOFOLLOW | O_CLOEXEC;

    /** {@code Descriptors.openDirectory(dir, name, follow)}: {@link #OPEN_DIRECTORY}, not through a link unless {@code follow}. */
    public static int openDirectoryAt(boolean follow) {
        return OPEN_DIRECTORY | (follow ? 0 : O_NOFOLLOW);
    }

    /** {@code Descriptors.openDirectoryToWrite(dir, name, follow)}: {@link #OPEN_DIRECTORY_TO_WRITE}, not through a link unless {@code follow}. */
    public static int openDirectoryToWriteAt(boolean follow) {
        return OPEN_DIRECTORY_TO_WRITE | (follow ? 0 : O_NOFOLLOW);
    }

    private Fcntl() {
    }
}
