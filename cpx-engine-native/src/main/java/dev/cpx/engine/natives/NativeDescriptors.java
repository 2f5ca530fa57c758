package dev.cpx.engine.natives;

import dev.cpx.spi.Descriptors;
import dev.cpx.spi.DirectoryEntries;
import dev.cpx.spi.FileStatus;
import dev.cpx.spi.support.DescriptorChannel;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.OptionalInt;

/**
 * {@link Descriptors} through the C library: each method one call (or {@code getdents64}'s loop),
 * no decision taken here but which errno means "not supported". Buffers for {@code getdents64} and
 * {@code statx} are per thread and direct, so nothing is copied between Java and C but names.
 */
final class NativeDescriptors implements Descriptors {

    static final NativeDescriptors INSTANCE = new NativeDescriptors();

    private static final int STATX_BASIC_STATS = 0x7ff;
    private static final int AT_STATX_SYNC_AS_STAT = 0;
    private static final int STATX_BUFFER = 256;
    private static final int DIRENTS_BUFFER = 32 << 10;
    private static final byte[] DOT = {'.', 0};

    /** Whether {@code linkat(fd, "", ..., AT_EMPTY_PATH)} is allowed (it needs CAP_DAC_READ_SEARCH); else /proc/self/fd. */
    private static volatile boolean linkByDescriptor = true;

    /** {@code ""}, for {@code AT_EMPTY_PATH}, and {@code "."}: read only, shared, never collected. */
    private static final ByteBuffer CONSTANTS = ByteBuffer.allocateDirect(4).put(1, (byte) '.');
    private static final long EMPTY = LibCBuffers.address(CONSTANTS);
    private static final long DOT_NAME = EMPTY + 1;
    /** NAME_MAX and its NUL. */
    private static final int NAME_BUFFER = 256;

    /** A thread's buffers, and their addresses for {@link LibCBuffers}. */
    private static final class Buffers {
        final ByteBuffer statx = ByteBuffer.allocateDirect(STATX_BUFFER).order(ByteOrder.nativeOrder());
        final long statxAddress = LibCBuffers.address(statx);
        final ByteBuffer dirents = ByteBuffer.allocateDirect(DIRENTS_BUFFER).order(ByteOrder.nativeOrder());
        final ByteBuffer name = ByteBuffer.allocateDirect(NAME_BUFFER);
        final long nameAddress = LibCBuffers.address(name);

        /** The address of {@code name} NUL-terminated in {@link #name}; 0 when it is too long for a name (the kernel says so then). */
        long name(byte[] name) {
            if (name.length >= NAME_BUFFER) {
                return 0;
            }
            this.name.put(0, name).put(name.length, (byte) 0);
            return nameAddress;
        }
    }

    private static final ThreadLocal<Buffers> BUFFERS = ThreadLocal.withInitial(Buffers::new);

    private NativeDescriptors() {
    }

    @Override
    public int openDirectory(Path directory) throws IOException {
        return open(directory, Fcntl.O_RDONLY | Fcntl.O_DIRECTORY | Fcntl.O_CLOEXEC);
    }

    @Override
    public int openDirectoryToWrite(Path directory) throws IOException {
        return open(directory, Fcntl.O_PATH | Fcntl.O_DIRECTORY | Fcntl.O_CLOEXEC);
    }

    @Override
    public boolean opensRelative() {
        return true;
    }

    @Override
    public int openDirectory(int directory, byte[] name, boolean follow) throws IOException {
        return openAt(directory, name, Fcntl.O_RDONLY | Fcntl.O_DIRECTORY | Fcntl.O_CLOEXEC | (follow ? 0 : Fcntl.O_NOFOLLOW));
    }

    @Override
    public int openDirectoryToWrite(int directory, byte[] name, boolean follow) throws IOException {
        return openAt(directory, name, Fcntl.O_PATH | Fcntl.O_DIRECTORY | Fcntl.O_CLOEXEC | (follow ? 0 : Fcntl.O_NOFOLLOW));
    }

    @Override
    public int openEntry(int directory, byte[] name) throws IOException {
        return openAt(directory, name, Fcntl.O_PATH | Fcntl.O_NOFOLLOW | Fcntl.O_CLOEXEC);
    }

    @Override
    public int createFile(int directory, byte[] name, int mode) throws IOException {
        return openAt(directory, name, Fcntl.O_CREAT | Fcntl.O_EXCL | Fcntl.O_RDWR | Fcntl.O_NOFOLLOW | Fcntl.O_CLOEXEC, mode & 07777);
    }

    @Override
    public void renameNoReplace(int fromDirectory, byte[] from, int toDirectory, byte[] to) throws IOException {
        if (LibC.renameat2(fromDirectory, cName(from), toDirectory, cName(to), Fcntl.RENAME_NOREPLACE) != 0) {
            throw Errno.forName(Errno.last(), to);
        }
    }

    private static int openAt(int directory, byte[] name, int flags) throws IOException {
        return openAt(directory, name, flags, 0);
    }

    private static int openAt(int directory, byte[] name, int flags, int mode) throws IOException {
        long c = BUFFERS.get().name(name);
        int fd = c != 0 ? LibCBuffers.openat(directory, c, flags, mode) : LibCAt.openat(directory, cName(name), flags, mode);
        if (fd < 0) {
            throw Errno.forName(Errno.last(), name);
        }
        return fd;
    }

    private static int open(Path path, int flags) throws IOException {
        int fd = LibCAt.openat(Fcntl.AT_FDCWD, cName(PathBytes.of(path)), flags, 0);
        if (fd < 0) {
            throw Errno.forPath(Errno.last(), path);
        }
        return fd;
    }

    @Override
    public void readDirectory(int directory, DirectoryEntries into) throws IOException {
        ByteBuffer b = BUFFERS.get().dirents;
        while (true) {
            long n = LibCAt.getdents64(directory, b, b.capacity());
            if (n < 0) {
                int errno = Errno.last();
                if (errno == Errno.EINTR) {
                    continue;
                }
                throw new IOException(Errno.message(errno));
            }
            if (n == 0) {
                return;
            }
            // struct linux_dirent64 { u64 d_ino; s64 d_off; u16 d_reclen; u8 d_type; char d_name[]; }
            int at = 0;
            while (at < n) {
                long ino = b.getLong(at);
                int reclen = b.getShort(at + 16) & 0xffff;
                int type = b.get(at + 18) & 0xff;
                int name = at + 19;
                int end = name;
                int limit = at + reclen;
                while (end < limit && b.get(end) != 0) {
                    end++;
                }
                int length = end - name;
                boolean dots = (length == 1 && b.get(name) == '.') || (length == 2 && b.get(name) == '.' && b.get(name + 1) == '.');
                if (!dots) {
                    into.add(ino, type, b, name, length);
                }
                at += reclen;
            }
        }
    }

    @Override
    public int openFile(int directory, byte[] name) throws IOException {
        return openAt(directory, name, Fcntl.O_RDONLY | Fcntl.O_NOFOLLOW | Fcntl.O_NONBLOCK | Fcntl.O_CLOEXEC);
    }

    @Override
    public FileStatus status(int fd) throws IOException {
        Buffers buffers = BUFFERS.get();
        if (LibCBuffers.statx(fd, EMPTY, Fcntl.AT_EMPTY_PATH | AT_STATX_SYNC_AS_STAT, STATX_BASIC_STATS, buffers.statxAddress) != 0) {
            throw new IOException(Errno.message(Errno.last()));
        }
        return status(buffers.statx);
    }

    @Override
    public FileStatus status(int directory, byte[] name) throws IOException {
        Buffers buffers = BUFFERS.get();
        ByteBuffer b = buffers.statx;
        long c = buffers.name(name);
        int flags = Fcntl.AT_SYMLINK_NOFOLLOW | AT_STATX_SYNC_AS_STAT;
        int r = c != 0 ? LibCBuffers.statx(directory, c, flags, STATX_BASIC_STATS, buffers.statxAddress)
                : LibCAt.statx(directory, cName(name), flags, STATX_BASIC_STATS, b);
        if (r != 0) {
            throw Errno.forName(Errno.last(), name);
        }
        return status(b);
    }

    /** {@code struct statx}, whose layout is the same on every architecture. */
    private static FileStatus status(ByteBuffer b) throws IOException {
        int mask = b.getInt(0);
        if ((mask & STATX_BASIC_STATS) != STATX_BASIC_STATS) {
            throw new IOException(Errno.message(Errno.EOPNOTSUPP) + " (statx mask " + Integer.toHexString(mask) + ")");
        }
        long nlink = b.getInt(16) & 0xffffffffL;
        int uid = b.getInt(20);
        int gid = b.getInt(24);
        int mode = b.getShort(28) & 0xffff;
        long ino = b.getLong(32);
        long size = b.getLong(40);
        long blocks = b.getLong(48);
        long rdev = makedev(b.getInt(128), b.getInt(132));
        long dev = makedev(b.getInt(136), b.getInt(140));
        return new FileStatus(mode, size, blocks, dev, ino, nlink, uid, gid, rdev,
                b.getLong(64), b.getInt(72), b.getLong(112), b.getInt(120), b.getLong(96), b.getInt(104));
    }

    /** glibc's {@code makedev}: the {@code dev_t} that {@code stat} returns, and the JDK's {@code unix:dev}. */
    static long makedev(int major, int minor) {
        long ma = major & 0xffffffffL;
        long mi = minor & 0xffffffffL;
        return ((ma & 0x00000fffL) << 8) | ((ma & 0xfffff000L) << 32) | (mi & 0x000000ffL) | ((mi & 0xffffff00L) << 12);
    }

    @Override
    public void makeDirectory(int directory, byte[] name, int mode) throws IOException {
        long c = BUFFERS.get().name(name);
        int r = c != 0 ? LibCBuffers.mkdirat(directory, c, mode & 07777) : LibCAt.mkdirat(directory, cName(name), mode & 07777);
        if (r != 0) {
            throw Errno.forName(Errno.last(), name);
        }
    }

    @Override
    public OptionalInt createUnnamed(int directory, int mode) throws IOException {
        int fd = LibCBuffers.openat(directory, DOT_NAME, Fcntl.O_TMPFILE | Fcntl.O_RDWR | Fcntl.O_CLOEXEC, mode & 07777);
        if (fd < 0) {
            int errno = Errno.last();
            if (errno == Errno.EOPNOTSUPP || errno == Errno.EISDIR || errno == Errno.EINVAL) {
                return OptionalInt.empty();
            }
            throw Errno.forName(errno, DOT);
        }
        return OptionalInt.of(fd);
    }

    @Override
    public void linkUnnamed(int fd, int directory, byte[] name) throws IOException {
        long buffer = BUFFERS.get().name(name);
        if (buffer == 0) {
            throw Errno.forName(Errno.ENAMETOOLONG, name);
        }
        if (linkByDescriptor) {
            if (LibCBuffers.linkat(fd, EMPTY, directory, buffer, Fcntl.AT_EMPTY_PATH) == 0) {
                return;
            }
            int errno = Errno.last();
            if (errno != Errno.ENOENT && errno != Errno.EPERM && errno != Errno.EINVAL) {
                throw Errno.forName(errno, name);
            }
            linkByDescriptor = false;
        }
        byte[] proc = ("/proc/self/fd/" + fd + "\0").getBytes(StandardCharsets.US_ASCII);
        if (LibC.linkat(Fcntl.AT_FDCWD, proc, directory, cName(name), Fcntl.AT_SYMLINK_FOLLOW) != 0) {
            throw Errno.forName(Errno.last(), name);
        }
    }

    @Override
    public void close(int fd) {
        LibC.close(fd);
    }

    @Override
    public FileChannel channel(int fd, boolean readable, boolean writable) {
        return DescriptorChannel.of(fd, readable, writable, LibC::close);
    }

    /** The name NUL-terminated. */
    private static byte[] cName(byte[] name) {
        return Arrays.copyOf(name, name.length + 1);
    }
}
