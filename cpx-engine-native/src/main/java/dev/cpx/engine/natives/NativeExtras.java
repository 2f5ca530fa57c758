package dev.cpx.engine.natives;

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
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.IntPredicate;

/**
 * What NIO cannot do, through the C library: special files ({@code mknod}), times to the
 * nanosecond on symbolic links ({@code utimensat}), and extended attributes of every namespace
 * ({@code [l]listxattr}, {@code [l]getxattr}, {@code [l]setxattr}), so POSIX ACLs
 * ({@code system.posix_acl_*}) copy too. Paths go to the kernel as their exact bytes.
 *
 * <p>Failures are the exceptions the JDK would throw ({@code NoSuchFileException} and so on),
 * otherwise a {@link FileSystemException} whose reason is the {@code strerror} text.
 */
public final class NativeExtras implements PosixExtras {


    /** Whether {@code linkat(fd, "", ..., AT_EMPTY_PATH)} is allowed (it needs CAP_DAC_READ_SEARCH); else /proc/self/fd. */
    private static volatile boolean linkByDescriptor = true;

    @Override
    public Availability availability() {
        return NativeSupport.libc();
    }

    @Override
    public void makeNode(Path path, int mode, long rdev) throws IOException {
        Availability nodes = NativeSupport.nodes();
        if (!nodes.available()) {
            throw new FileSystemException(path.toString(), null, "Operation not supported (" + nodes.reason() + ")");
        }
        if (LibCNodes.mknod(cPath(path), mode, rdev) != 0) {
            throw Errno.forPath(LibC.errno(), path);
        }
    }

    /**
     * {@code open(dir, O_TMPFILE | O_RDWR)}: a file with no name, readable so a copy can be verified. Empty where the file system or
     * kernel has no unnamed files ({@code EOPNOTSUPP}, {@code EISDIR}, {@code EINVAL}), so the
     * scheduler uses a temporary name instead; other errors are the file system's answer.
     */
    @Override
    public Optional<FileChannel> createUnnamed(Path directory, int mode) throws IOException {
        int fd = LibC.open(cPath(directory), Fcntl.CREATE_UNNAMED, mode & 07777);
        if (fd < 0) {
            int errno = LibC.errno();
            if (Errno.meansNoUnnamedFiles(errno)) {
                return Optional.empty();
            }
            throw Errno.forPath(errno, directory);
        }
        try {
            return Optional.of(FileDescriptors.channel(fd, "unnamed file in directory", true, true));
        } catch (IllegalStateException e) {
            LibC.close(fd);
            return Optional.empty();
        }
    }

    /** {@code linkat}: by descriptor where allowed, else through {@code /proc/self/fd/N}, as {@code open(2)} documents. */
    @Override
    public void linkUnnamed(FileChannel file, Path target) throws IOException {
        int fd = FileDescriptors.of(file);
        byte[] name = cPath(target);
        if (linkByDescriptor) {
            if (LibC.linkat(fd, LibC.EMPTY_PATH, Fcntl.AT_FDCWD, name, Fcntl.AT_EMPTY_PATH) == 0) {
                return;
            }
            int errno = LibC.errno();
            if (!Errno.meansLinkByDescriptorRefused(errno)) {
                throw Errno.forPath(errno, target);
            }
            linkByDescriptor = false;
        }
        byte[] proc = ("/proc/self/fd/" + fd + "\0").getBytes(StandardCharsets.US_ASCII);
        if (LibC.linkat(Fcntl.AT_FDCWD, proc, Fcntl.AT_FDCWD, name, Fcntl.AT_SYMLINK_FOLLOW) != 0) {
            throw Errno.forPath(LibC.errno(), target);
        }
    }

    /** Where {@code openat}, {@code getdents64} and the rest bind (glibc 2.30 and later). */
    @Override
    public Optional<Descriptors> descriptors() {
        return NativeSupport.at().available() ? Optional.of(NativeDescriptors.INSTANCE) : Optional.empty();
    }

    @Override
    public OptionalLong allocatedBytes(FileChannel file) {
        return NativeKernelCalls.INSTANCE.allocatedBytes(file);
    }

    @Override
    public boolean quitByDefault() {
        return LibC.signal(Signals.SIGQUIT, Signals.SIG_DFL) != -1;
    }

    @Override
    public Optional<IntPredicate> printable() {
        return Optional.of(Printable.INSTANCE);
    }

    /** {@code iswprint} in the process's locale (the JVM sets it from the environment at start). A class, not a lambda: linked at no cost. */
    private static final class Printable implements IntPredicate {
        static final Printable INSTANCE = new Printable();

        @Override
        public boolean test(int codePoint) {
            return LibCText.iswprint(codePoint) != 0;
        }
    }

    @Override
    public OptionalLong fileSystemType(Path path) {
        long[] statfs = new long[16];
        return LibC.statfs(cPath(path), statfs) == 0 ? OptionalLong.of(statfs[0]) : OptionalLong.empty();
    }

    @Override
    public void setTimes(Path path, FileTime lastAccess, FileTime lastModified, boolean followLinks) throws IOException {
        long[] times = Timespecs.of(lastAccess, lastModified);
        if (LibCMetadata.utimensat(Fcntl.AT_FDCWD, cPath(path), times, followLinks ? 0 : Fcntl.AT_SYMLINK_NOFOLLOW) != 0) {
            throw Errno.forPath(LibC.errno(), path);
        }
    }

    @Override
    public List<String> listXattrs(Path path, boolean followLinks) throws IOException {
        byte[] file = cPath(path);
        byte[] list = Xattrs.readSized(path, buffer -> followLinks
                ? LibCMetadata.listxattr(file, buffer, buffer == null ? 0 : buffer.length)
                : LibCMetadata.llistxattr(file, buffer, buffer == null ? 0 : buffer.length), LibC::errno);
        return Xattrs.names(list);
    }

    @Override
    public byte[] getXattr(Path path, String name, boolean followLinks) throws IOException {
        byte[] file = cPath(path);
        byte[] attribute = Xattrs.cName(path, name);
        return Xattrs.readSized(path, buffer -> followLinks
                ? LibCMetadata.getxattr(file, attribute, buffer, buffer == null ? 0 : buffer.length)
                : LibCMetadata.lgetxattr(file, attribute, buffer, buffer == null ? 0 : buffer.length), LibC::errno);
    }

    @Override
    public void setXattr(Path path, String name, byte[] value, boolean followLinks) throws IOException {
        byte[] file = cPath(path);
        byte[] attribute = Xattrs.cName(path, name);
        int result = followLinks
                ? LibC.setxattr(file, attribute, value, value.length, 0)
                : LibC.lsetxattr(file, attribute, value, value.length, 0);
        if (result != 0) {
            throw Errno.forPath(LibC.errno(), path);
        }
    }

    @Override
    public void removeXattr(Path path, String name, boolean followLinks) throws IOException {
        byte[] file = cPath(path);
        byte[] attribute = Xattrs.cName(path, name);
        int result = followLinks ? LibC.removexattr(file, attribute) : LibC.lremovexattr(file, attribute);
        if (result != 0 && LibC.errno() != Errno.ENODATA) {
            throw Errno.forPath(LibC.errno(), path);
        }
    }

    /** The path's exact bytes, NUL-terminated. */
    private static byte[] cPath(Path path) {
        byte[] bytes = PathBytes.of(path);
        return Arrays.copyOf(bytes, bytes.length + 1);
    }
}
