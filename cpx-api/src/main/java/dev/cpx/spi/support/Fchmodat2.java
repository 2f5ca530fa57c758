package dev.cpx.spi.support;

/**
 * {@code fchmodat2(fd, "", mode, AT_EMPTY_PATH)} (Linux 6.6): the one call that changes the mode of
 * a file held by an {@code O_PATH} descriptor, where {@code fchmod} fails with {@code EBADF}. glibc
 * 2.36 has no wrapper, so engines call it by number; whether this kernel has it is learnt from the
 * first answer and kept for the run (an older kernel or a seccomp filter says {@code ENOSYS}, a
 * kernel without {@code AT_EMPTY_PATH} there {@code EINVAL}), and then callers go by path.
 *
 * @since 0.3.0
 */
public final class Fchmodat2 {

    /** The system call's number: the same on every architecture (numbers from 424 on are shared). */
    public static final long NUMBER = 452;

    private static volatile boolean available = true;

    private Fchmodat2() {
    }

    /** Whether to try the call (false once the kernel said it has none). */
    public static boolean available() {
        return available;
    }

    /** Takes note of the call's failure with {@code errno}: the call is not tried again where it does not exist here. */
    public static void failed(int errno) {
        if (errno == Errno.ENOSYS || errno == Errno.EINVAL) {
            available = false;
        }
    }
}
