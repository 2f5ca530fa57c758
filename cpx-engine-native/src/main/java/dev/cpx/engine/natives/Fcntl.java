package dev.cpx.engine.natives;

/** The flags of {@code <fcntl.h>} this module passes to the kernel (64-bit Linux, generic values). */
final class Fcntl {

    static final int AT_FDCWD = -100;
    static final int AT_SYMLINK_NOFOLLOW = 0x100;
    static final int AT_SYMLINK_FOLLOW = 0x400;
    /** Operate on the descriptor itself when the path is empty. */
    static final int AT_EMPTY_PATH = 0x1000;
    /** The empty path that goes with {@link #AT_EMPTY_PATH}, NUL-terminated. */
    static final byte[] EMPTY_PATH = {0};
    static final int O_RDONLY = 0;
    static final int O_RDWR = 02;
    static final int O_CREAT = 0100;
    static final int O_EXCL = 0200;
    /** {@code renameat2}'s flag: fail with {@code EEXIST} rather than replace. */
    static final int RENAME_NOREPLACE = 1;
    static final int O_NONBLOCK = 04000;
    static final int O_DIRECTORY = 0200000;
    static final int O_NOFOLLOW = 0400000;
    /** Only to name the file or directory in further calls: nothing is read, no read permission needed. */
    static final int O_PATH = 010000000;
    static final int O_CLOEXEC = 02000000;
    /** {@code __O_TMPFILE | O_DIRECTORY}. */
    static final int O_TMPFILE = 020200000;

    private Fcntl() {
    }
}
