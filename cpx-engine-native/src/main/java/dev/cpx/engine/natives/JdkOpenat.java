package dev.cpx.engine.natives;

import dev.cpx.spi.support.PrivateFields;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * {@code openat(2)} through the JDK's own binding of it ({@code sun.nio.fs.UnixNativeDispatcher}'s
 * {@code openat0}, which its {@code SecureDirectoryStream} uses), where this JDK has it and cpx may
 * reach it ({@link PrivateFields#method}): an ordinary JNI method, where a JNA call goes through
 * libffi twice (into JNA's dispatcher and out to the C library) and records errno per thread. Every
 * copied file is opened twice, so this is the engine's most frequent call: on the Linux tree
 * (78,579 files, tmpfs) JNA's dispatch of the two opens cost ~90 ms of CPU. A failure comes back as
 * the JDK's {@code UnixException}, which makes no stack trace; its errno is returned negated.
 * Where the JDK has no such method, {@link #AVAILABLE} is false and {@link NativeDescriptors} calls
 * {@link LibCBuffers#openat} instead.
 */
final class JdkOpenat {

    private static final MethodHandle OPENAT = PrivateFields.method("sun.nio.fs.UnixNativeDispatcher", "openat0",
            MethodType.methodType(int.class, int.class, long.class, int.class, int.class), true).orElse(null);
    /** {@code UnixException.errno()}. */
    private static final MethodHandle ERRNO = OPENAT == null ? null
            : PrivateFields.method("sun.nio.fs.UnixException", "errno", MethodType.methodType(int.class), false).orElse(null);

    /** Whether {@link #openat} may be called. */
    static final boolean AVAILABLE = ERRNO != null;

    private JdkOpenat() {
    }

    /** {@code openat(directory, path, flags, mode)} of a NUL-terminated name at {@code path}: the descriptor, or -errno. */
    static int openat(int directory, long path, int flags, int mode) {
        try {
            return (int) OPENAT.invokeExact(directory, path, flags, mode);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable unixException) {
            return -errno(unixException);
        }
    }

    private static int errno(Throwable unixException) {
        try {
            // Not invokeExact: its receiver's type is not cpx's to name; the adaptation is made on
            // the first failure only.
            return (int) ERRNO.invoke(unixException);
        } catch (Throwable e) {
            throw new IllegalStateException("the JDK's openat failed and its errno is unreadable", e);
        }
    }
}
