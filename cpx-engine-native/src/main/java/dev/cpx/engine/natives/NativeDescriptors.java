package dev.cpx.engine.natives;

import dev.cpx.spi.Descriptors;
import dev.cpx.spi.DirectoryEntries;
import dev.cpx.spi.FileStatus;
import dev.cpx.spi.support.CloseBatch;
import dev.cpx.spi.support.DescriptorChannel;
import dev.cpx.spi.support.Dirents;
import dev.cpx.spi.support.Errno;
import dev.cpx.spi.support.Fchmodat2;
import dev.cpx.spi.support.Fcntl;
import dev.cpx.spi.support.NoReplaceRename;
import dev.cpx.spi.support.Openat2;
import dev.cpx.spi.support.PathBytes;
import dev.cpx.spi.support.Statx;
import dev.cpx.spi.support.Timespecs;
import dev.cpx.spi.support.Xattrs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.OptionalInt;
import java.util.function.IntConsumer;

/**
 * {@link Descriptors} through the C library: each method one call (or {@code getdents64}'s loop),
 * no decision taken here but which errno means "not supported". Buffers for {@code getdents64} and
 * {@code statx} are per thread and direct, so nothing is copied between Java and C but names.
 */
final class NativeDescriptors implements Descriptors {

    static final NativeDescriptors INSTANCE = new NativeDescriptors();

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
        final ByteBuffer statx = ByteBuffer.allocateDirect(Statx.SIZE).order(ByteOrder.nativeOrder());
        final long statxAddress = LibCBuffers.address(statx);
        final ByteBuffer dirents = ByteBuffer.allocateDirect(DIRENTS_BUFFER).order(ByteOrder.nativeOrder());
        final ByteBuffer name = ByteBuffer.allocateDirect(NAME_BUFFER);
        final long nameAddress = LibCBuffers.address(name);

        /** The address of {@code name} NUL-terminated in {@link #name}; 0 when it is too long for a name (the kernel says so then). */
        long name(byte[] name) {
            if (name.length >= NAME_BUFFER) {
                return 0;
            }
            // Byte by byte: put(int, byte[]) checks its array through the VM on every call, costlier
            // where C1 compiles than a name's few bytes.
            ByteBuffer b = this.name;
            int n = name.length;
            for (int i = 0; i < n; i++) {
                b.put(i, name[i]);
            }
            b.put(n, (byte) 0);
            return nameAddress;
        }
    }

    private static final byte[] HOW_TO_LIST = Openat2.how(false);
    private static final byte[] HOW_TO_WRITE = Openat2.how(true);

    private static final ThreadLocal<Buffers> BUFFERS = ThreadLocal.withInitial(Buffers::new);

    /** {@link #renameNoReplace}'s calls. */
    private static final NoReplaceRename.Calls RENAMES = new NoReplaceRename.Calls() {
        @Override
        public int renameat2(int fromDirectory, byte[] from, int toDirectory, byte[] to, int flags) {
            return LibC.renameat2(fromDirectory, cName(from), toDirectory, cName(to), flags) == 0 ? 0 : LibC.errno();
        }

        @Override
        public boolean exists(int directory, byte[] name) throws IOException {
            return INSTANCE.statusIfThere(directory, name) != null;
        }
    };

    /** Regular files' closes, put off and done together. */
    private static final CloseBatch CLOSES = new CloseBatch(new CloseBatch.Closer() {
        @Override
        public void close(int fd) {
            LibC.close(fd);
        }

        @Override
        public int closeRange(int first, int last) {
            return LibC.syscall(CloseBatch.CLOSE_RANGE, first, last, 0) == 0 ? 0 : LibC.errno();
        }
    });

    /**
     * The put-off close, made once: a method reference to {@code CLOSES.add} captures it and would be a
     * new object, made through the VM where C1 compiles, for every channel.
     */
    private static final IntConsumer CLOSE_LATER = CLOSES::add;

    private NativeDescriptors() {
    }

    @Override
    public int openDirectory(Path directory) throws IOException {
        return open(directory, Fcntl.OPEN_DIRECTORY);
    }

    @Override
    public int openDirectoryToWrite(Path directory) throws IOException {
        return open(directory, Fcntl.OPEN_DIRECTORY_TO_WRITE);
    }

    @Override
    public boolean opensRelative() {
        return true;
    }

    @Override
    public int openDirectory(int directory, byte[] name, boolean follow) throws IOException {
        return openAt(directory, name, Fcntl.openDirectoryAt(follow));
    }

    @Override
    public int openDirectoryToWrite(int directory, byte[] name, boolean follow) throws IOException {
        return openAt(directory, name, Fcntl.openDirectoryToWriteAt(follow));
    }

    @Override
    public java.util.OptionalInt openDirectoryBeneath(int directory, byte[] path, boolean toWrite) throws IOException {
        if (!Openat2.available()) {
            return java.util.OptionalInt.empty();
        }
        byte[] how = toWrite ? HOW_TO_WRITE : HOW_TO_LIST;
        byte[] cPath = cName(path);
        long fd = LibC.syscall(Openat2.NUMBER, directory, cPath, how, Openat2.HOW_SIZE);
        int errno = fd >= 0 ? 0 : LibC.errno();
        // Out of descriptors: the closes put off first, as openat does.
        for (int i = 0; errno == Errno.EMFILE && CLOSES.makeRoom(i); i++) {
            fd = LibC.syscall(Openat2.NUMBER, directory, cPath, how, Openat2.HOW_SIZE);
            errno = fd >= 0 ? 0 : LibC.errno();
        }
        if (fd >= 0) {
            return java.util.OptionalInt.of((int) fd);
        }
        if (Openat2.unsupported(errno)) {
            return java.util.OptionalInt.empty();
        }
        throw Errno.forName(errno, path);
    }

    @Override
    public int openEntry(int directory, byte[] name) throws IOException {
        return openAt(directory, name, Fcntl.PIN_ENTRY);
    }

    @Override
    public int openToWrite(int directory, byte[] name, boolean truncate) throws IOException {
        return openAt(directory, name, Fcntl.openToWriteAt(truncate));
    }

    @Override
    public int createFile(int directory, byte[] name, int mode) throws IOException {
        return openAt(directory, name, Fcntl.CREATE_FILE, mode & 07777);
    }

    @Override
    public void renameNoReplace(int fromDirectory, byte[] from, int toDirectory, byte[] to) throws IOException {
        NoReplaceRename.rename(RENAMES, fromDirectory, from, toDirectory, to);
    }

    private static int openAt(int directory, byte[] name, int flags) throws IOException {
        return openAt(directory, name, flags, 0);
    }

    private static int openAt(int directory, byte[] name, int flags, int mode) throws IOException {
        long c = BUFFERS.get().name(name);
        int fd = c != 0 ? openat(directory, c, flags, mode) : openat(directory, cName(name), flags, mode);
        if (fd < 0) {
            throw Errno.forName(-fd, name);
        }
        return fd;
    }

    /**
     * {@code openat(2)} of a NUL-terminated name at {@code path}: the descriptor, or -errno. Out of
     * descriptors ({@code EMFILE}), it makes the closes put off ({@link CloseBatch#makeRoom}) and
     * tries again.
     */
    private static int openat(int directory, long path, int flags, int mode) {
        int fd = openatOnce(directory, path, flags, mode);
        for (int i = 0; fd == -Errno.EMFILE && CLOSES.makeRoom(i); i++) {
            fd = openatOnce(directory, path, flags, mode);
        }
        return fd;
    }

    private static int openatOnce(int directory, long path, int flags, int mode) {
        if (JdkOpenat.AVAILABLE) {
            return JdkOpenat.openat(directory, path, flags, mode);
        }
        int fd = LibCBuffers.openat(directory, path, flags, mode);
        return fd >= 0 ? fd : -LibC.errno();
    }

    /** {@code openat(2)} of a NUL-terminated name in {@code cName} (a name too long for the buffer, a path), as {@link #openat(int, long, int, int)}. */
    private static int openat(int directory, byte[] cName, int flags, int mode) {
        int fd = LibCAt.openat(directory, cName, flags, mode);
        for (int i = 0; fd < 0 && LibC.errno() == Errno.EMFILE && CLOSES.makeRoom(i); i++) {
            fd = LibCAt.openat(directory, cName, flags, mode);
        }
        return fd >= 0 ? fd : -LibC.errno();
    }

    private static int open(Path path, int flags) throws IOException {
        int fd = openat(Fcntl.AT_FDCWD, cName(PathBytes.of(path)), flags, 0);
        if (fd < 0) {
            throw Errno.forPath(-fd, path);
        }
        return fd;
    }

    @Override
    public void readDirectory(int directory, DirectoryEntries into) throws IOException {
        ByteBuffer b = BUFFERS.get().dirents;
        while (true) {
            long n = LibCAt.getdents64(directory, b, b.capacity());
            if (n < 0) {
                int errno = LibC.errno();
                if (errno == Errno.EINTR) {
                    continue;
                }
                throw new IOException(Errno.message(errno));
            }
            if (n == 0) {
                return;
            }
            Dirents.add(b, n, into);
        }
    }

    @Override
    public int openFile(int directory, byte[] name) throws IOException {
        return openAt(directory, name, Fcntl.OPEN_ENTRY);
    }

    @Override
    public FileStatus status(int fd) throws IOException {
        Buffers buffers = BUFFERS.get();
        if (LibCBuffers.statx(fd, EMPTY, Fcntl.AT_EMPTY_PATH | Statx.SYNC_AS_STAT, Statx.BASIC_STATS, buffers.statxAddress) != 0) {
            throw new IOException(Errno.message(LibC.errno()));
        }
        return Statx.status(buffers.statx);
    }

    @Override
    public FileStatus status(int directory, byte[] name) throws IOException {
        FileStatus s = statusIfThere(directory, name);
        if (s == null) {
            throw Errno.forName(Errno.ENOENT, name);
        }
        return s;
    }

    @Override
    public FileStatus statusIfThere(int directory, byte[] name) throws IOException {
        Buffers buffers = BUFFERS.get();
        ByteBuffer b = buffers.statx;
        long c = buffers.name(name);
        int flags = Fcntl.AT_SYMLINK_NOFOLLOW | Statx.SYNC_AS_STAT;
        int r = c != 0 ? LibCBuffers.statx(directory, c, flags, Statx.BASIC_STATS, buffers.statxAddress)
                : LibCAt.statx(directory, cName(name), flags, Statx.BASIC_STATS, b);
        if (r != 0) {
            int errno = LibC.errno();
            if (errno == Errno.ENOENT) {
                return null;
            }
            throw Errno.forName(errno, name);
        }
        return Statx.status(b);
    }

    @Override
    public boolean changeOwner(int fd, int uid, int gid) throws IOException {
        if (LibCMetadata.fchown(fd, uid, gid) == 0) {
            return true;
        }
        int errno = LibC.errno();
        return errno == Errno.EBADF
                ? LibCMetadata.fchownat(fd, LibC.EMPTY_PATH, uid, gid, Fcntl.AT_EMPTY_PATH) == 0
                : Errno.notThroughDescriptor(errno, fd);
    }

    @Override
    public boolean changeMode(int fd, int mode) throws IOException {
        if (LibCMetadata.fchmod(fd, mode & 07777) == 0) {
            return true;
        }
        int errno = LibC.errno();
        if (errno != Errno.EBADF) {
            return Errno.notThroughDescriptor(errno, fd);
        }
        if (!Fchmodat2.available()) {
            return false;
        }
        if (LibC.syscall(Fchmodat2.NUMBER, fd, LibC.EMPTY_PATH, mode & 07777, Fcntl.AT_EMPTY_PATH) == 0) {
            return true;
        }
        Fchmodat2.failed(LibC.errno());
        return false;
    }

    @Override
    public boolean changeTimes(int fd, java.nio.file.attribute.FileTime lastAccess, java.nio.file.attribute.FileTime lastModified)
            throws IOException {
        long[] times = Timespecs.of(lastAccess, lastModified);
        if (LibCMetadata.futimens(fd, times) == 0) {
            return true;
        }
        int errno = LibC.errno();
        return errno == Errno.EBADF
                ? LibCMetadata.utimensat(fd, LibC.EMPTY_PATH, times, Fcntl.AT_EMPTY_PATH) == 0
                : Errno.notThroughDescriptor(errno, fd);
    }

    @Override
    public java.util.List<String> listXattrs(int fd) throws IOException {
        return Xattrs.names(Xattrs.readSized(fd, buffer -> LibCMetadata.flistxattr(fd, buffer, buffer == null ? 0 : buffer.length), LibC::errno));
    }

    @Override
    public void makeDirectory(int directory, byte[] name, int mode) throws IOException {
        long c = BUFFERS.get().name(name);
        int r = c != 0 ? LibCBuffers.mkdirat(directory, c, mode & 07777) : LibCAt.mkdirat(directory, cName(name), mode & 07777);
        if (r != 0) {
            throw Errno.forName(LibC.errno(), name);
        }
    }

    @Override
    public OptionalInt createUnnamed(int directory, int mode) throws IOException {
        int fd = openat(directory, DOT_NAME, Fcntl.CREATE_UNNAMED, mode & 07777);
        if (fd < 0) {
            int errno = -fd;
            if (Errno.meansNoUnnamedFiles(errno)) {
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
            int errno = LibC.errno();
            if (!Errno.meansLinkByDescriptorRefused(errno)) {
                throw Errno.forName(errno, name);
            }
            linkByDescriptor = false;
        }
        byte[] proc = ("/proc/self/fd/" + fd + "\0").getBytes(StandardCharsets.US_ASCII);
        if (LibC.linkat(Fcntl.AT_FDCWD, proc, directory, cName(name), Fcntl.AT_SYMLINK_FOLLOW) != 0) {
            throw Errno.forName(LibC.errno(), name);
        }
    }

    @Override
    public void close(int fd) {
        LibC.close(fd);
    }

    @Override
    public FileChannel channel(int fd, boolean readable, boolean writable) {
        return DescriptorChannel.of(fd, readable, writable, writable ? NativeDescriptors::closeWritten : LibC::close);
    }

    @Override
    public void closeLater(int fd) {
        CLOSES.add(fd);
    }

    @Override
    public FileChannel channelClosedLater(int fd, boolean readable, boolean writable) {
        return DescriptorChannel.of(fd, readable, writable, CLOSE_LATER);
    }

    /** Closes a file written through {@code fd} at once, its error thrown ({@link Errno#writtenCloseFailed}). */
    private static void closeWritten(int fd) {
        if (LibC.close(fd) != 0) {
            Errno.writtenCloseFailed(LibC.errno());
        }
    }

    @Override
    public void closePutOff() {
        CLOSES.flush();
    }

    /** The name NUL-terminated. */
    private static byte[] cName(byte[] name) {
        return Arrays.copyOf(name, name.length + 1);
    }
}
