package dev.cpx.engine.natives;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import java.nio.ByteBuffer;

/**
 * {@link LibC}'s calls of every copied file with their pointer arguments in direct buffers instead
 * of arrays: JNA passes a Java array by copying it into memory it allocates and frees again around
 * each call ({@code Get/Release<Type>ArrayElements}), a buffer by its address. Buffers must be
 * direct; their position is ignored (the address of element 0 is passed).
 */
final class LibCBuffers {

    static {
        Native.register(LibCBuffers.class, NativeLibrary.getInstance(LibC.LIBRARY));
    }

    private LibCBuffers() {
    }

    /** {@code offIn} and {@code offOut}: one {@code loff_t} each. */
    static native long copy_file_range(int fdIn, ByteBuffer offIn, int fdOut, ByteBuffer offOut, long len, int flags);

    /** {@code offset}: one {@code off_t}. */
    static native long sendfile(int outFd, int inFd, ByteBuffer offset, long count);

    /** {@code openat(2)} with its mode argument; {@code path} NUL-terminated. */
    static native int openat(int dirFd, ByteBuffer path, int flags, int mode);

    static native int statx(int dirFd, ByteBuffer path, int flags, int mask, ByteBuffer statxBuffer);

    static native int linkat(int oldDirFd, ByteBuffer oldPath, int newDirFd, ByteBuffer newPath, int flags);

    static native int mkdirat(int dirFd, ByteBuffer path, int mode);
}
