package dev.cpx.engine.natives;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import java.nio.ByteBuffer;

/**
 * The calls relative to an open directory that {@link NativeDescriptors} makes, bound apart from
 * {@link LibC} because {@code getdents64} is exported by glibc only since 2.30: on an older C library
 * only the descriptor operations are missing (the scheduler then uses paths), not the whole engine.
 * Direct mapping, as {@link LibC}; a {@link ByteBuffer} argument must be direct and is passed as its
 * address (position 0 is always used).
 */
final class LibCAt {

    static {
        Native.register(LibCAt.class, NativeLibrary.getInstance(LibC.LIBRARY));
    }

    private LibCAt() {
    }

    /** Makes sure the functions are bound (runs the static initializer). */
    static void load() {
        // Nothing to do: reaching here means registration succeeded.
    }

    /** {@code openat(2)}, declared with its mode argument (variadic in C, passed in a register on 64-bit Linux). */
    static native int openat(int dirFd, byte[] path, int flags, int mode);

    static native int mkdirat(int dirFd, byte[] path, int mode);

    static native long getdents64(int fd, ByteBuffer buffer, long size);

    static native int statx(int dirFd, byte[] path, int flags, int mask, ByteBuffer statxBuffer);
}
