package dev.cpx.engine.ffm;

import dev.cpx.spi.Availability;
import dev.cpx.spi.Descriptors;
import dev.cpx.spi.PosixExtras;
import dev.cpx.spi.support.Errno;
import dev.cpx.spi.support.Fcntl;
import dev.cpx.spi.support.FileDescriptors;
import dev.cpx.spi.support.PathBytes;
import dev.cpx.spi.support.Signals;
import dev.cpx.spi.support.Timespecs;
import dev.cpx.spi.support.Xattrs;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.IntPredicate;

/**
 * The native engine's {@link PosixExtras} (special files, times to the nanosecond on links, extended
 * attributes of every namespace, unnamed files, the descriptor calls) through downcall handles:
 * the same calls, the same exceptions and words ({@link Errno}). Used where JNA's cannot load, or,
 * with {@code -Dcpx.ffm=prefer}, before them ({@link #priority()}): then JNA does not load at all.
 */
public final class FfmExtras implements PosixExtras {

    @Override
    public Availability availability() {
        return FfmSupport.libc();
    }

    /** Below the native support's 0 (used where JNA cannot load), above it with {@code -Dcpx.ffm=prefer}. */
    @Override
    public int priority() {
        return FfmSupport.preferred() ? 10 : -10;
    }

    @Override
    public void makeNode(Path path, int mode, long rdev) throws IOException {
        Scratch s = path(path);
        int r = LibC.mknodat(s, Fcntl.AT_FDCWD, s.pathA, mode, rdev);
        if (r == -2) {
            throw new FileSystemException(path.toString(), null, "Operation not supported (C library lacks mknodat)");
        }
        if (r != 0) {
            throw Errno.forPath(s.errno(), path);
        }
    }

    /** As the native support's: empty where the file system has no unnamed files, so the scheduler uses a temporary name. */
    @Override
    public Optional<FileChannel> createUnnamed(Path directory, int mode) throws IOException {
        Scratch s = path(directory);
        int fd = LibC.openat(s, Fcntl.AT_FDCWD, s.pathA, Fcntl.CREATE_UNNAMED, mode & 07777);
        if (fd < 0) {
            int errno = s.errno();
            if (Errno.meansNoUnnamedFiles(errno)) {
                return Optional.empty();
            }
            throw Errno.forPath(errno, directory);
        }
        try {
            return Optional.of(FileDescriptors.channel(fd, "unnamed file in directory", true, true));
        } catch (IllegalStateException e) {
            LibC.close(s, fd);
            return Optional.empty();
        }
    }

    @Override
    public void linkUnnamed(FileChannel file, Path target) throws IOException {
        int fd = FileDescriptors.of(file);
        Scratch s = Scratch.get();
        if (!s.pathB(PathBytes.of(target))) {
            throw Errno.forPath(Errno.ENAMETOOLONG, target);
        }
        int errno = FfmDescriptors.link(s, fd, Fcntl.AT_FDCWD);
        if (errno != 0) {
            throw Errno.forPath(errno, target);
        }
    }

    @Override
    public Optional<Descriptors> descriptors() {
        return Optional.of(FfmDescriptors.INSTANCE);
    }

    @Override
    public OptionalLong allocatedBytes(FileChannel file) {
        return FfmKernelCalls.INSTANCE.allocatedBytes(file);
    }

    @Override
    public boolean quitByDefault() {
        return LibC.signal(Scratch.get(), Signals.SIGQUIT, Signals.SIG_DFL) != -1;
    }

    @Override
    public Optional<IntPredicate> printable() {
        return Optional.of(Printable.INSTANCE);
    }

    /** {@code iswprint} in the process's locale (the JVM sets it from the environment at start). */
    private static final class Printable implements IntPredicate {
        static final Printable INSTANCE = new Printable();

        @Override
        public boolean test(int codePoint) {
            return LibC.iswprint(Scratch.get(), codePoint) != 0;
        }
    }

    @Override
    public OptionalLong fileSystemType(Path path) {
        Scratch s = Scratch.get();
        // struct statfs (120 bytes) fits in the scratch's statx area (256).
        if (!s.pathA(PathBytes.of(path)) || LibC.statfs(s, s.pathA, s.statx) != 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(s.statxView.getLong(0));
    }

    @Override
    public void setTimes(Path path, FileTime lastAccess, FileTime lastModified, boolean followLinks) throws IOException {
        Scratch s = path(path);
        s.times(Timespecs.of(lastAccess, lastModified));
        if (LibC.utimensat(s, Fcntl.AT_FDCWD, s.pathA, s.times, followLinks ? 0 : Fcntl.AT_SYMLINK_NOFOLLOW) != 0) {
            throw Errno.forPath(s.errno(), path);
        }
    }

    @Override
    public List<String> listXattrs(Path path, boolean followLinks) throws IOException {
        Scratch s = path(path);
        return Xattrs.names(Xattrs.readSized(path, buffer -> buffer == null
                ? listxattr(s, followLinks, 0, 0)
                : into(s, buffer, listxattr(s, followLinks, s.xattr().address(), xattrSize(buffer))), s::errno));
    }

    @Override
    public byte[] getXattr(Path path, String name, boolean followLinks) throws IOException {
        Scratch s = path(path);
        s.pathB(Xattrs.cName(path, name));
        return Xattrs.readSized(path, buffer -> buffer == null
                ? getxattr(s, followLinks, 0, 0)
                : into(s, buffer, getxattr(s, followLinks, s.xattr().address(), xattrSize(buffer))), s::errno);
    }

    @Override
    public void setXattr(Path path, String name, byte[] value, boolean followLinks) throws IOException {
        Scratch s = path(path);
        s.pathB(Xattrs.cName(path, name));
        if (value.length > Scratch.XATTR_MAX) {
            throw Errno.forPath(Errno.E2BIG, path);
        }
        s.xattr().buffer().put(0, value);
        long address = s.xattr().address();
        int r = followLinks ? LibC.setxattr(s, s.pathA, s.pathB, address, value.length, 0)
                : LibC.lsetxattr(s, s.pathA, s.pathB, address, value.length, 0);
        if (r != 0) {
            throw Errno.forPath(s.errno(), path);
        }
    }

    @Override
    public void removeXattr(Path path, String name, boolean followLinks) throws IOException {
        Scratch s = path(path);
        s.pathB(Xattrs.cName(path, name));
        int r = followLinks ? LibC.removexattr(s, s.pathA, s.pathB) : LibC.lremovexattr(s, s.pathA, s.pathB);
        if (r != 0 && s.errno() != Errno.ENODATA) {
            throw Errno.forPath(s.errno(), path);
        }
    }

    /** {@code [l]listxattr} of the path at {@link Scratch#pathA}. */
    private static long listxattr(Scratch s, boolean followLinks, long list, long size) {
        return followLinks ? LibC.listxattr(s, s.pathA, list, size) : LibC.llistxattr(s, s.pathA, list, size);
    }

    /** {@code [l]getxattr} of the path at {@link Scratch#pathA}, the name at {@link Scratch#pathB}. */
    private static long getxattr(Scratch s, boolean followLinks, long value, long size) {
        return followLinks ? LibC.getxattr(s, s.pathA, s.pathB, value, size) : LibC.lgetxattr(s, s.pathA, s.pathB, value, size);
    }

    /** The thread's scratch with {@code path} at {@link Scratch#pathA}. */
    private static Scratch path(Path path) throws IOException {
        Scratch s = Scratch.get();
        if (!s.pathA(PathBytes.of(path))) {
            throw Errno.forPath(Errno.ENAMETOOLONG, path);
        }
        return s;
    }

    /** The size to offer for {@code buffer}: at most the scratch's, which no attribute exceeds. */
    static long xattrSize(byte[] buffer) {
        return Math.min(buffer.length, Scratch.XATTR_MAX);
    }

    /** Copies what a call put in the scratch's attribute buffer into {@code buffer}; passes its result on. */
    static long into(Scratch s, byte[] buffer, long n) {
        if (n > 0) {
            s.xattr().buffer().get(0, buffer, 0, (int) n);
        }
        return n;
    }
}
