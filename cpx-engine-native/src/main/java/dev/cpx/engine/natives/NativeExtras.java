package dev.cpx.engine.natives;

import dev.cpx.spi.Availability;
import dev.cpx.spi.Descriptors;
import dev.cpx.spi.PosixExtras;
import dev.cpx.spi.support.FileDescriptors;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

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
    /** {@code tv_nsec} value that leaves a time as it is. */
    private static final long UTIME_OMIT = (1L << 30) - 2;
    /** Attempts at reading a list or value that keeps growing between the size query and the read. */
    private static final int ERANGE_RETRIES = 8;

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
            throw Errno.forPath(Errno.last(), path);
        }
    }

    /**
     * {@code open(dir, O_TMPFILE | O_RDWR)}: a file with no name, readable so a copy can be verified. Empty where the file system or
     * kernel has no unnamed files ({@code EOPNOTSUPP}, {@code EISDIR}, {@code EINVAL}), so the
     * scheduler uses a temporary name instead; other errors are the file system's answer.
     */
    @Override
    public Optional<FileChannel> createUnnamed(Path directory, int mode) throws IOException {
        int fd = LibC.open(cPath(directory), Fcntl.O_TMPFILE | Fcntl.O_RDWR | Fcntl.O_CLOEXEC, mode & 07777);
        if (fd < 0) {
            int errno = Errno.last();
            if (errno == Errno.EOPNOTSUPP || errno == Errno.EISDIR || errno == Errno.EINVAL) {
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
            if (LibC.linkat(fd, Fcntl.EMPTY_PATH, Fcntl.AT_FDCWD, name, Fcntl.AT_EMPTY_PATH) == 0) {
                return;
            }
            int errno = Errno.last();
            if (errno != Errno.ENOENT && errno != Errno.EPERM && errno != Errno.EINVAL) {
                throw Errno.forPath(errno, target);
            }
            linkByDescriptor = false;
        }
        byte[] proc = ("/proc/self/fd/" + fd + "\0").getBytes(StandardCharsets.US_ASCII);
        if (LibC.linkat(Fcntl.AT_FDCWD, proc, Fcntl.AT_FDCWD, name, Fcntl.AT_SYMLINK_FOLLOW) != 0) {
            throw Errno.forPath(Errno.last(), target);
        }
    }

    /** Where {@code openat}, {@code getdents64} and the rest bind (glibc 2.30 and later). */
    @Override
    public Optional<Descriptors> descriptors() {
        return NativeSupport.at().available() ? Optional.of(NativeDescriptors.INSTANCE) : Optional.empty();
    }

    @Override
    public OptionalLong allocatedBytes(FileChannel file) {
        Allocation allocation;
        try {
            allocation = Allocation.of(FileDescriptors.of(file));
        } catch (IllegalStateException e) {
            return OptionalLong.empty();
        }
        return allocation == null ? OptionalLong.empty() : OptionalLong.of(allocation.allocated());
    }

    @Override
    public void setTimes(Path path, FileTime lastAccess, FileTime lastModified, boolean followLinks) throws IOException {
        long[] times = new long[4];
        putTime(times, 0, lastAccess);
        putTime(times, 2, lastModified);
        if (LibC.utimensat(Fcntl.AT_FDCWD, cPath(path), times, followLinks ? 0 : Fcntl.AT_SYMLINK_NOFOLLOW) != 0) {
            throw Errno.forPath(Errno.last(), path);
        }
    }

    /** Writes {@code time} as a {@code struct timespec} (seconds, then nanoseconds 0..999999999) at {@code index}. */
    private static void putTime(long[] times, int index, FileTime time) {
        if (time == null) {
            times[index + 1] = UTIME_OMIT;
            return;
        }
        Instant instant = time.toInstant();
        times[index] = instant.getEpochSecond();
        times[index + 1] = instant.getNano();
    }

    @Override
    public List<String> listXattrs(Path path, boolean followLinks) throws IOException {
        byte[] file = cPath(path);
        byte[] list = readSized(path, buffer -> followLinks
                ? LibC.listxattr(file, buffer, buffer == null ? 0 : buffer.length)
                : LibC.llistxattr(file, buffer, buffer == null ? 0 : buffer.length));
        List<String> names = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < list.length; i++) {
            if (list[i] == 0) {
                if (i > from) {
                    names.add(new String(list, from, i - from, StandardCharsets.ISO_8859_1));
                }
                from = i + 1;
            }
        }
        return names;
    }

    @Override
    public byte[] getXattr(Path path, String name, boolean followLinks) throws IOException {
        byte[] file = cPath(path);
        byte[] attribute = cName(path, name);
        return readSized(path, buffer -> followLinks
                ? LibC.getxattr(file, attribute, buffer, buffer == null ? 0 : buffer.length)
                : LibC.lgetxattr(file, attribute, buffer, buffer == null ? 0 : buffer.length));
    }

    @Override
    public void setXattr(Path path, String name, byte[] value, boolean followLinks) throws IOException {
        byte[] file = cPath(path);
        byte[] attribute = cName(path, name);
        int result = followLinks
                ? LibC.setxattr(file, attribute, value, value.length, 0)
                : LibC.lsetxattr(file, attribute, value, value.length, 0);
        if (result != 0) {
            throw Errno.forPath(Errno.last(), path);
        }
    }

    @Override
    public void removeXattr(Path path, String name, boolean followLinks) throws IOException {
        byte[] file = cPath(path);
        byte[] attribute = cName(path, name);
        int result = followLinks ? LibC.removexattr(file, attribute) : LibC.lremovexattr(file, attribute);
        if (result != 0 && Errno.last() != Errno.ENODATA) {
            throw Errno.forPath(Errno.last(), path);
        }
    }

    /** One call of a function that fills a buffer: with null it returns the size needed. */
    @FunctionalInterface
    private interface SizedCall {
        long call(byte[] buffer);
    }

    /**
     * The usual two calls: ask the size, then read into a buffer of that size; if the value grew in
     * between ({@code ERANGE}), ask again.
     */
    private static byte[] readSized(Path path, SizedCall call) throws IOException {
        for (int attempt = 0; attempt < ERANGE_RETRIES; attempt++) {
            long size = call.call(null);
            if (size < 0) {
                throw Errno.forPath(Errno.last(), path);
            }
            if (size == 0) {
                return new byte[0];
            }
            byte[] buffer = new byte[(int) size];
            long n = call.call(buffer);
            if (n >= 0) {
                return n == buffer.length ? buffer : Arrays.copyOf(buffer, (int) n);
            }
            int errno = Errno.last();
            if (errno != Errno.ERANGE) {
                throw Errno.forPath(errno, path);
            }
        }
        throw Errno.forPath(Errno.ERANGE, path);
    }

    /** The path's exact bytes, NUL-terminated. */
    private static byte[] cPath(Path path) {
        byte[] bytes = PathBytes.of(path);
        return Arrays.copyOf(bytes, bytes.length + 1);
    }

    /** An attribute name as Latin-1 bytes (one byte per char), NUL-terminated. */
    private static byte[] cName(Path path, String name) throws FileSystemException {
        byte[] bytes = new byte[name.length() + 1];
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == 0 || c > 0xFF) {
                throw new FileSystemException(path.toString(), null, Errno.message(Errno.EINVAL));
            }
            bytes[i] = (byte) c;
        }
        return bytes;
    }
}
