package dev.cpx.engine.natives;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/**
 * {@code mknod}, bound apart from {@link LibC} because glibc exports it as a plain symbol only since
 * 2.33 (before, only {@code __xmknod}): on an older C library only special files are unsupported,
 * not the whole engine.
 */
final class LibCNodes {

    static {
        Native.register(LibCNodes.class, NativeLibrary.getInstance(LibC.LIBRARY));
    }

    private LibCNodes() {
    }

    /** Makes sure the function is bound (runs the static initializer). */
    static void load() {
        // Nothing to do: reaching here means registration succeeded.
    }

    static native int mknod(byte[] path, int mode, long dev);
}
