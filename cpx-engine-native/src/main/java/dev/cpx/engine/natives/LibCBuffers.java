package dev.cpx.engine.natives;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;

/**
 * {@link LibC}'s calls of every copied file with their pointer arguments as addresses ({@code long})
 * of direct buffers the caller keeps: JNA passes a Java array by copying it into memory it allocates
 * and frees again around each call ({@code Get/Release<Type>ArrayElements}), and a {@code Buffer} by
 * calling back into Java for its position (perf showed {@code jni_CallIntMethod},
 * {@code JavaCalls::call_helper} among the workers' top symbols); a {@code long} is passed as it is.
 * Each address is that of a direct buffer the caller holds on to for the call's length
 * ({@link #address}).
 */
final class LibCBuffers {

    static {
        Native.register(LibCBuffers.class, NativeLibrary.getInstance(LibC.LIBRARY));
    }

    private LibCBuffers() {
    }

    /** {@code offIn} and {@code offOut}: one {@code loff_t} each. */
    static native long copy_file_range(int fdIn, long offIn, int fdOut, long offOut, long len, int flags);

    /** {@code offset}: one {@code off_t}. */
    static native long sendfile(int outFd, int inFd, long offset, long count);

    /** {@code openat(2)} with its mode argument; {@code path} NUL-terminated. */
    static native int openat(int dirFd, long path, int flags, int mode);

    static native int statx(int dirFd, long path, int flags, int mask, long statxBuffer);

    static native int linkat(int oldDirFd, long oldPath, int newDirFd, long newPath, int flags);

    static native int mkdirat(int dirFd, long path, int mode);

    /** The address of a direct buffer's first byte (valid while the buffer is reachable). */
    static long address(ByteBuffer direct) {
        return Pointer.nativeValue(Native.getDirectBufferPointer(direct));
    }
}
