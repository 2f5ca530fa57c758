package dev.cpx.engine.ffm;

import dev.cpx.spi.support.CloseBatch;
import java.lang.invoke.MethodHandle;

/**
 * The C library functions this module calls: a downcall handle per function, bound in one line by
 * its name ({@link Linking#downcall}, one shape for all), and a static method per function with the
 * C signature that invokes it exactly, so the JIT sees a constant handle and inlines the call down to
 * the native one. Each returns what the C function returns; on failure (-1) the thread's
 * {@code errno} is in {@link Scratch#errno()}. Pointer parameters ({@code long}) are addresses in a
 * thread's {@link Scratch}. Initializing this class needs JDK 22 ({@link FfmSupport} checks first);
 * a function the C library lacks has a null handle, and {@link #missing()} names it.
 *
 * <p>Adding a function: its handle (one line), and its method below, which passes unused arguments
 * as 0.
 */
final class LibC {

    // Copying
    private static final MethodHandle COPY_FILE_RANGE = Linking.downcall("copy_file_range");
    private static final MethodHandle SENDFILE = Linking.downcall("sendfile");
    private static final MethodHandle LSEEK = Linking.downcall("lseek");
    private static final MethodHandle FTRUNCATE = Linking.downcall("ftruncate");
    private static final MethodHandle IOCTL = Linking.downcall("ioctl");
    private static final MethodHandle STATX = Linking.downcall("statx");
    private static final MethodHandle STATFS = Linking.downcall("statfs");
    private static final MethodHandle SIGNAL = Linking.downcall("signal");
    private static final MethodHandle ISWPRINT = Linking.downcall("iswprint");

    // Descriptors
    private static final MethodHandle OPENAT = Linking.downcall("openat");
    private static final MethodHandle MKDIRAT = Linking.downcall("mkdirat");
    private static final MethodHandle LINKAT = Linking.downcall("linkat");
    private static final MethodHandle RENAMEAT2 = Linking.downcall("renameat2");
    private static final MethodHandle CLOSE = Linking.downcall("close");
    private static final MethodHandle FCHOWN = Linking.downcall("fchown");
    private static final MethodHandle FCHMOD = Linking.downcall("fchmod");
    private static final MethodHandle FUTIMENS = Linking.downcall("futimens");
    private static final MethodHandle FCHOWNAT = Linking.downcall("fchownat");
    /** For the calls glibc 2.36 has no wrapper for ({@code fchmodat2}); variadic in C, every argument in a register. */
    private static final MethodHandle SYSCALL = Linking.downcall("syscall");
    private static final MethodHandle GETDENTS64 = Linking.downcall("getdents64");

    // Metadata
    private static final MethodHandle MKNODAT = Linking.downcall("mknodat");
    private static final MethodHandle UTIMENSAT = Linking.downcall("utimensat");
    private static final MethodHandle LISTXATTR = Linking.downcall("listxattr");
    private static final MethodHandle LLISTXATTR = Linking.downcall("llistxattr");
    private static final MethodHandle FLISTXATTR = Linking.downcall("flistxattr");
    private static final MethodHandle GETXATTR = Linking.downcall("getxattr");
    private static final MethodHandle LGETXATTR = Linking.downcall("lgetxattr");
    private static final MethodHandle SETXATTR = Linking.downcall("setxattr");
    private static final MethodHandle LSETXATTR = Linking.downcall("lsetxattr");
    private static final MethodHandle REMOVEXATTR = Linking.downcall("removexattr");
    private static final MethodHandle LREMOVEXATTR = Linking.downcall("lremovexattr");

    // For the benchmark that compares dispatch costs (cpx-jmh DispatchBenchmark): a system call, and a function that makes none
    private static final MethodHandle GETPID = Linking.downcall("getpid");
    private static final MethodHandle ABS = Linking.downcall("abs");

    private LibC() {
    }

    /** Makes sure the functions are bound (runs the static initializer). */
    static void load() {
        // Nothing to do: reaching here means the bindings were made.
    }

    /** The functions the C library lacks, comma-separated; empty when it has all. */
    static String missing() {
        return Linking.missing();
    }

    static long copyFileRange(Scratch s, int in, long offIn, int out, long offOut, long length, int flags) {
        try {
            return (long) COPY_FILE_RANGE.invokeExact(s.state, (long) in, offIn, (long) out, offOut, length, (long) flags);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static long sendfile(Scratch s, int out, int in, long offset, long count) {
        try {
            return (long) SENDFILE.invokeExact(s.state, (long) out, (long) in, offset, count, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static long lseek(Scratch s, int fd, long offset, int whence) {
        try {
            return (long) LSEEK.invokeExact(s.state, (long) fd, offset, (long) whence, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int ftruncate(Scratch s, int fd, long length) {
        try {
            return (int) (long) FTRUNCATE.invokeExact(s.state, (long) fd, length, 0L, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    /** {@code ioctl} with one integer argument, as {@code FICLONE} takes. */
    static int ioctl(Scratch s, int fd, long request, int arg) {
        try {
            return (int) (long) IOCTL.invokeExact(s.state, (long) fd, request, (long) arg, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int statx(Scratch s, int dirFd, long path, int flags, int mask, long statx) {
        try {
            return (int) (long) STATX.invokeExact(s.state, (long) dirFd, path, (long) flags, (long) mask, statx, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int openat(Scratch s, int dirFd, long path, int flags, int mode) {
        try {
            return (int) (long) OPENAT.invokeExact(s.state, (long) dirFd, path, (long) flags, (long) mode, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int mkdirat(Scratch s, int dirFd, long path, int mode) {
        try {
            return (int) (long) MKDIRAT.invokeExact(s.state, (long) dirFd, path, (long) mode, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int linkat(Scratch s, int oldDirFd, long oldPath, int newDirFd, long newPath, int flags) {
        try {
            return (int) (long) LINKAT.invokeExact(s.state, (long) oldDirFd, oldPath, (long) newDirFd, newPath, (long) flags, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int renameat2(Scratch s, int oldDirFd, long oldPath, int newDirFd, long newPath, int flags) {
        try {
            return (int) (long) RENAMEAT2.invokeExact(s.state, (long) oldDirFd, oldPath, (long) newDirFd, newPath, (long) flags, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int fchown(Scratch s, int fd, int uid, int gid) {
        try {
            return (int) (long) FCHOWN.invokeExact(s.state, (long) fd, (long) uid, (long) gid, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int fchmod(Scratch s, int fd, int mode) {
        try {
            return (int) (long) FCHMOD.invokeExact(s.state, (long) fd, (long) mode, 0L, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int fchownat(Scratch s, int dirFd, long path, int uid, int gid, int flags) {
        try {
            return (int) (long) FCHOWNAT.invokeExact(s.state, (long) dirFd, path, (long) uid, (long) gid, (long) flags, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    /** {@code syscall(number, fd, path, mode, flags)}: {@code fchmodat2}'s shape. */
    static int syscall(Scratch s, long number, int fd, long path, int mode, int flags) {
        try {
            return (int) (long) SYSCALL.invokeExact(s.state, number, (long) fd, path, (long) mode, (long) flags, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    /** {@code syscall(number, fd, path, how, size)}: {@code openat2}'s shape. */
    static long syscall(Scratch s, long number, int fd, long path, long how, long size) {
        try {
            return (long) SYSCALL.invokeExact(s.state, number, (long) fd, path, how, size, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    /** {@code syscall(CLOSE_RANGE, first, last, flags)}. */
    static int closeRange(Scratch s, int first, int last, int flags) {
        try {
            return (int) (long) SYSCALL.invokeExact(s.state, CloseBatch.CLOSE_RANGE, (long) first, (long) last, (long) flags,
                    0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int futimens(Scratch s, int fd, long times) {
        try {
            return (int) (long) FUTIMENS.invokeExact(s.state, (long) fd, times, 0L, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    /** {@code signal(2)}: {@code handler} a {@code sighandler_t} ({@code SIG_DFL} is 0); the previous one, or -1 ({@code SIG_ERR}). */
    static long signal(Scratch s, int signum, long handler) {
        try {
            return (long) SIGNAL.invokeExact(s.state, (long) signum, handler, 0L, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    /** {@code iswprint(3)}: non-zero where the locale prints the wide character {@code wc}. */
    static int iswprint(Scratch s, int wc) {
        try {
            return (int) (long) ISWPRINT.invokeExact(s.state, (long) wc, 0L, 0L, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    /** {@code statfs(2)} into {@code buf} ({@code struct statfs}, 120 bytes on 64-bit Linux, {@code f_type} first). */
    static int statfs(Scratch s, long path, long buf) {
        try {
            return (int) (long) STATFS.invokeExact(s.state, path, buf, 0L, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int close(Scratch s, int fd) {
        try {
            return (int) (long) CLOSE.invokeExact(s.state, (long) fd, 0L, 0L, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static long getdents64(Scratch s, int fd, long buffer, long size) {
        try {
            return (long) GETDENTS64.invokeExact(s.state, (long) fd, buffer, size, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    /** {@code mknodat} (a plain symbol in glibc since 2.33, as {@code mknod}); -2 where the C library lacks it. */
    static int mknodat(Scratch s, int dirFd, long path, int mode, long dev) {
        if (MKNODAT == null) {
            return -2;
        }
        try {
            return (int) (long) MKNODAT.invokeExact(s.state, (long) dirFd, path, (long) mode, dev, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int utimensat(Scratch s, int dirFd, long path, long times, int flags) {
        try {
            return (int) (long) UTIMENSAT.invokeExact(s.state, (long) dirFd, path, times, (long) flags, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static long listxattr(Scratch s, long path, long list, long size) {
        try {
            return (long) LISTXATTR.invokeExact(s.state, path, list, size, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static long flistxattr(Scratch s, int fd, long list, long size) {
        try {
            return (long) FLISTXATTR.invokeExact(s.state, (long) fd, list, size, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static long llistxattr(Scratch s, long path, long list, long size) {
        try {
            return (long) LLISTXATTR.invokeExact(s.state, path, list, size, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static long getxattr(Scratch s, long path, long name, long value, long size) {
        try {
            return (long) GETXATTR.invokeExact(s.state, path, name, value, size, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static long lgetxattr(Scratch s, long path, long name, long value, long size) {
        try {
            return (long) LGETXATTR.invokeExact(s.state, path, name, value, size, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int setxattr(Scratch s, long path, long name, long value, long size, int flags) {
        try {
            return (int) (long) SETXATTR.invokeExact(s.state, path, name, value, size, (long) flags, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int lsetxattr(Scratch s, long path, long name, long value, long size, int flags) {
        try {
            return (int) (long) LSETXATTR.invokeExact(s.state, path, name, value, size, (long) flags, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int removexattr(Scratch s, long path, long name) {
        try {
            return (int) (long) REMOVEXATTR.invokeExact(s.state, path, name, 0L, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int lremovexattr(Scratch s, long path, long name) {
        try {
            return (int) (long) LREMOVEXATTR.invokeExact(s.state, path, name, 0L, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int getpid(Scratch s) {
        try {
            return (int) (long) GETPID.invokeExact(s.state, 0L, 0L, 0L, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int abs(Scratch s, int value) {
        try {
            return (int) (long) ABS.invokeExact(s.state, (long) value, 0L, 0L, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }
}
