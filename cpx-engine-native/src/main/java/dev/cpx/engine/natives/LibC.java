package dev.cpx.engine.natives;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;

/**
 * The C library functions the engine and the extras call, bound with JNA direct mapping
 * ({@link Native#register}): a static native method per function, about four times cheaper per call
 * than an interface mapping. Every method is a thin pass-through; errors come back as -1 with
 * {@code errno} in {@link Native#getLastError()}, and every decision is taken in Java.
 *
 * <p>Types assume 64-bit Linux ({@code long} is {@code size_t}, {@code ssize_t}, {@code off_t} and
 * {@code dev_t}; {@code long[]} is a pointer to {@code loff_t} or to {@code struct timespec[2]}).
 * Paths and names are NUL-terminated byte arrays. Needs glibc 2.28 or later ({@code statx});
 * {@code mknod} lives in {@link LibCNodes} because it needs 2.33; what a plain copy never calls is
 * bound on first use ({@link LibCMetadata}, {@link LibCText}). Loading this class throws a
 * {@link LinkageError} where JNA or the C library cannot load: {@link NativeSupport} catches it.
 */
final class LibC {

    /**
     * The C library by its file name on Linux: given just "c", JNA runs {@code ldconfig -p} at every
     * start to find it (a process per cpx run).
     */
    static final String LIBRARY = Platform.isLinux() ? "libc.so.6" : Platform.C_LIBRARY_NAME;

    /** The empty path that goes with {@code AT_EMPTY_PATH}, NUL-terminated. */
    static final byte[] EMPTY_PATH = {0};

    static {
        FfiTypeOrder.give();
        Native.register(LibC.class, NativeLibrary.getInstance(LIBRARY));
    }

    private LibC() {
    }

    /** Makes sure the functions are bound (runs the static initializer). */
    static void load() {
        // Nothing to do: reaching here means registration succeeded.
    }

    // Copying

    static native long copy_file_range(int fdIn, long[] offIn, int fdOut, long[] offOut, long len, int flags);

    static native long sendfile(int outFd, int inFd, long[] offset, long count);

    static native long lseek(int fd, long offset, int whence);

    /** {@code signal(2)}: {@code handler} a {@code sighandler_t} ({@code SIG_DFL} is 0); the previous one, or -1 ({@code SIG_ERR}). */
    static native long signal(int signum, long handler);

    static native int ftruncate(int fd, long length);

    /** {@code ioctl} with one integer argument, as {@code FICLONE} takes. */
    static native int ioctl(int fd, long request, int arg);

    static native int statx(int dirFd, byte[] path, int flags, int mask, byte[] statxBuffer);

    // Unnamed files

    /** {@code open(2)}; declared with its mode argument (variadic in C, passed in a register on 64-bit Linux). */
    static native int open(byte[] path, int flags, int mode);

    static native int linkat(int oldDirFd, byte[] oldPath, int newDirFd, byte[] newPath, int flags);

    static native int renameat2(int oldDirFd, byte[] oldPath, int newDirFd, byte[] newPath, int flags);

    static native int close(int fd);

    /** {@code statfs(2)}: {@code buf} holds {@code struct statfs} (120 bytes on 64-bit Linux), {@code f_type} first. */
    static native int statfs(byte[] path, long[] buf);

    /**
     * {@code syscall(2)} with four arguments, for the calls glibc 2.36 has no wrapper for
     * ({@code fchmodat2}); variadic in C, every argument in a register on 64-bit Linux.
     */
    static native long syscall(long number, int fd, byte[] path, int mode, int flags);

    /** {@code syscall(2)}: {@code openat2(dirFd, path, how, size)}'s shape. */
    static native long syscall(long number, int fd, byte[] path, byte[] how, long size);

    /** {@code syscall(2)}: {@code close_range(first, last, flags)}'s shape. */
    static native long syscall(long number, int first, int last, int flags);

    /** Extended attributes set and removed: the resume marker of every staged copy (the rest: {@link LibCMetadata}). */
    static native int setxattr(byte[] path, byte[] name, byte[] value, long size, int flags);

    static native int lsetxattr(byte[] path, byte[] name, byte[] value, long size, int flags);

    static native int removexattr(byte[] path, byte[] name);

    static native int lremovexattr(byte[] path, byte[] name);

    // Errors

    /** This thread's {@code errno} after its last call through JNA. */
    static int errno() {
        return Native.getLastError();
    }
}
