package dev.cpx.engine.ffm;

import java.lang.invoke.MethodHandle;

/**
 * The C library functions this module calls, one downcall handle each ({@link Linking#downcall}: a
 * line per function, its signature in a short code), and a static method per function that invokes
 * it exactly, so the JIT sees a constant handle and inlines the call. Each returns what the C
 * function returns; on failure (-1) the thread's {@code errno} is in {@link Scratch#errno()}. Pointer
 * parameters ({@code long}) are addresses in a thread's {@link Scratch}. Initializing this class
 * needs JDK 22 ({@link FfmSupport} checks first); a function the C library lacks has a null handle,
 * and {@link #missing()} names it.
 */
final class LibC {

    // Copying
    private static final MethodHandle COPY_FILE_RANGE = Linking.downcall("copy_file_range", "j:ijijji");
    private static final MethodHandle SENDFILE = Linking.downcall("sendfile", "j:iijj");
    private static final MethodHandle LSEEK = Linking.downcall("lseek", "j:iji");
    private static final MethodHandle FTRUNCATE = Linking.downcall("ftruncate", "i:ij");
    private static final MethodHandle IOCTL = Linking.downcall("ioctl", "i:ij|i");
    private static final MethodHandle STATX = Linking.downcall("statx", "i:ijiij");
    // Descriptors
    private static final MethodHandle OPENAT = Linking.downcall("openat", "i:iji|i");
    private static final MethodHandle MKDIRAT = Linking.downcall("mkdirat", "i:iji");
    private static final MethodHandle LINKAT = Linking.downcall("linkat", "i:ijiji");
    private static final MethodHandle CLOSE = Linking.downcall("close", "i:i");
    private static final MethodHandle GETDENTS64 = Linking.downcall("getdents64", "j:ijj");
    // Metadata
    private static final MethodHandle MKNODAT = Linking.downcall("mknodat", "i:ijij");
    private static final MethodHandle UTIMENSAT = Linking.downcall("utimensat", "i:ijji");
    private static final MethodHandle LISTXATTR = Linking.downcall("listxattr", "j:jjj");
    private static final MethodHandle LLISTXATTR = Linking.downcall("llistxattr", "j:jjj");
    private static final MethodHandle GETXATTR = Linking.downcall("getxattr", "j:jjjj");
    private static final MethodHandle LGETXATTR = Linking.downcall("lgetxattr", "j:jjjj");
    private static final MethodHandle SETXATTR = Linking.downcall("setxattr", "i:jjjji");
    private static final MethodHandle LSETXATTR = Linking.downcall("lsetxattr", "i:jjjji");
    private static final MethodHandle REMOVEXATTR = Linking.downcall("removexattr", "i:jj");
    private static final MethodHandle LREMOVEXATTR = Linking.downcall("lremovexattr", "i:jj");
    // For the benchmark that compares dispatch costs (cpx-jmh DispatchBenchmark): a system call, and a function that makes none
    private static final MethodHandle GETPID = Linking.downcall("getpid", "i:");
    private static final MethodHandle ABS = Linking.downcall("abs", "i:i");

    private LibC() {
    }

    /** Makes sure the functions are bound (runs the static initializer). */
    static void load() {
        // Nothing to do: reaching here means the bindings were made.
    }

    /** The functions the C library lacks, comma-separated; empty when it has all. */
    static String missing() {
        StringBuilder names = new StringBuilder();
        Object[][] all = {{COPY_FILE_RANGE, "copy_file_range"}, {SENDFILE, "sendfile"}, {LSEEK, "lseek"}, {FTRUNCATE, "ftruncate"},
            {IOCTL, "ioctl"}, {STATX, "statx"}, {OPENAT, "openat"}, {MKDIRAT, "mkdirat"}, {LINKAT, "linkat"}, {CLOSE, "close"},
            {GETDENTS64, "getdents64"}, {MKNODAT, "mknodat"}, {UTIMENSAT, "utimensat"}, {LISTXATTR, "listxattr"},
            {LLISTXATTR, "llistxattr"}, {GETXATTR, "getxattr"}, {LGETXATTR, "lgetxattr"}, {SETXATTR, "setxattr"},
            {LSETXATTR, "lsetxattr"}, {REMOVEXATTR, "removexattr"}, {LREMOVEXATTR, "lremovexattr"}, {GETPID, "getpid"}, {ABS, "abs"}};
        for (Object[] f : all) {
            if (f[0] == null) {
                names.append(names.length() == 0 ? "" : ", ").append(f[1]);
            }
        }
        return names.toString();
    }

    static long copyFileRange(Scratch s, int in, long offIn, int out, long offOut, long length, int flags) {
        try {
            return (long) COPY_FILE_RANGE.invokeExact(s.state, in, offIn, out, offOut, length, flags);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static long sendfile(Scratch s, int out, int in, long offset, long count) {
        try {
            return (long) SENDFILE.invokeExact(s.state, out, in, offset, count);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static long lseek(Scratch s, int fd, long offset, int whence) {
        try {
            return (long) LSEEK.invokeExact(s.state, fd, offset, whence);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int ftruncate(Scratch s, int fd, long length) {
        try {
            return (int) FTRUNCATE.invokeExact(s.state, fd, length);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    /** {@code ioctl} with one integer argument, as {@code FICLONE} takes. */
    static int ioctl(Scratch s, int fd, long request, int arg) {
        try {
            return (int) IOCTL.invokeExact(s.state, fd, request, arg);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int statx(Scratch s, int dirFd, long path, int flags, int mask, long statx) {
        try {
            return (int) STATX.invokeExact(s.state, dirFd, path, flags, mask, statx);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int openat(Scratch s, int dirFd, long path, int flags, int mode) {
        try {
            return (int) OPENAT.invokeExact(s.state, dirFd, path, flags, mode);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int mkdirat(Scratch s, int dirFd, long path, int mode) {
        try {
            return (int) MKDIRAT.invokeExact(s.state, dirFd, path, mode);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int linkat(Scratch s, int oldDirFd, long oldPath, int newDirFd, long newPath, int flags) {
        try {
            return (int) LINKAT.invokeExact(s.state, oldDirFd, oldPath, newDirFd, newPath, flags);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int close(Scratch s, int fd) {
        try {
            return (int) CLOSE.invokeExact(s.state, fd);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static long getdents64(Scratch s, int fd, long buffer, long size) {
        try {
            return (long) GETDENTS64.invokeExact(s.state, fd, buffer, size);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    /** {@code mknodat} (in glibc since 2.33 as a plain symbol, as {@code mknod}); -2 where the C library lacks it. */
    static int mknodat(Scratch s, int dirFd, long path, int mode, long dev) {
        if (MKNODAT == null) {
            return -2;
        }
        try {
            return (int) MKNODAT.invokeExact(s.state, dirFd, path, mode, dev);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int utimensat(Scratch s, int dirFd, long path, long times, int flags) {
        try {
            return (int) UTIMENSAT.invokeExact(s.state, dirFd, path, times, flags);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static long listxattr(Scratch s, boolean follow, long path, long list, long size) {
        try {
            return follow ? (long) LISTXATTR.invokeExact(s.state, path, list, size) : (long) LLISTXATTR.invokeExact(s.state, path, list, size);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static long getxattr(Scratch s, boolean follow, long path, long name, long value, long size) {
        try {
            return follow ? (long) GETXATTR.invokeExact(s.state, path, name, value, size)
                    : (long) LGETXATTR.invokeExact(s.state, path, name, value, size);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int setxattr(Scratch s, boolean follow, long path, long name, long value, long size, int flags) {
        try {
            return follow ? (int) SETXATTR.invokeExact(s.state, path, name, value, size, flags)
                    : (int) LSETXATTR.invokeExact(s.state, path, name, value, size, flags);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int removexattr(Scratch s, boolean follow, long path, long name) {
        try {
            return follow ? (int) REMOVEXATTR.invokeExact(s.state, path, name) : (int) LREMOVEXATTR.invokeExact(s.state, path, name);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int getpid(Scratch s) {
        try {
            return (int) GETPID.invokeExact(s.state);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }

    static int abs(Scratch s, int value) {
        try {
            return (int) ABS.invokeExact(s.state, value);
        } catch (Throwable e) {
            throw Linking.unexpected(e);
        }
    }
}
