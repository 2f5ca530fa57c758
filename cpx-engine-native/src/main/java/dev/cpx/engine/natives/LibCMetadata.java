package dev.cpx.engine.natives;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/**
 * The calls that read and set a mode, owners, times and extended attributes after an entry is made
 * ({@code -a}, {@code -p}, {@code --preserve}, a directory's special bits), bound apart from
 * {@link LibC} on their first use: a plain copy never makes them (it sets and removes one extended
 * attribute, the resume marker, through {@link LibC}), and every function {@link LibC} binds is
 * bound at every start, on the thread the copy waits for. Direct mapping and errors as
 * {@link LibC}; every function here is in glibc long before the 2.28 {@link LibC} needs, so binding
 * them cannot fail where {@link LibC} was bound.
 */
final class LibCMetadata {

    static {
        Native.register(LibCMetadata.class, NativeLibrary.getInstance(LibC.LIBRARY));
    }

    private LibCMetadata() {
    }

    static native int fchmod(int fd, int mode);

    static native int utimensat(int dirFd, byte[] path, long[] times, int flags);

    static native int futimens(int fd, long[] times);

    static native int fchown(int fd, int uid, int gid);

    static native int fchownat(int dirFd, byte[] path, int uid, int gid, int flags);

    static native long listxattr(byte[] path, byte[] list, long size);

    static native long llistxattr(byte[] path, byte[] list, long size);

    static native long flistxattr(int fd, byte[] list, long size);

    static native long getxattr(byte[] path, byte[] name, byte[] value, long size);

    static native long lgetxattr(byte[] path, byte[] name, byte[] value, long size);
}
