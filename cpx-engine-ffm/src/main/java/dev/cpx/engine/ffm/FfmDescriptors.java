package dev.cpx.engine.ffm;

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
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.function.IntConsumer;

/**
 * {@link Descriptors} through downcall handles: each method one call (or {@code getdents64}'s loop),
 * names and buffers in the thread's {@link Scratch}, the struct and record layouts read by the same
 * code as the native engine's ({@link Statx}, {@link Dirents}), errors worded by the same table
 * ({@link Errno}).
 */
final class FfmDescriptors implements Descriptors {

    static final FfmDescriptors INSTANCE = new FfmDescriptors();

    private static final byte[] EMPTY = {};
    private static final byte[] DOT = {'.'};
    private static final byte[] HOW_TO_LIST = Openat2.how(false);
    private static final byte[] HOW_TO_WRITE = Openat2.how(true);

    /** {@link #renameNoReplace}'s calls. */
    private static final NoReplaceRename.Calls RENAMES = new NoReplaceRename.Calls() {
        @Override
        public int renameat2(int fromDirectory, byte[] from, int toDirectory, byte[] to, int flags) throws IOException {
            Scratch s = Scratch.get();
            name(s, from);
            if (!s.pathB(to)) {
                throw Errno.forName(Errno.ENAMETOOLONG, to);
            }
            return LibC.renameat2(s, fromDirectory, s.pathA, toDirectory, s.pathB, flags) == 0 ? 0 : s.errno();
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
            LibC.close(Scratch.get(), fd);
        }

        @Override
        public int closeRange(int first, int last) {
            Scratch s = Scratch.get();
            return LibC.closeRange(s, first, last, 0) == 0 ? 0 : s.errno();
        }
    });

    /**
     * The put-off close, made once: a method reference to {@code CLOSES.add} captures it and would be a
     * new object for every channel.
     */
    private static final IntConsumer CLOSE_LATER = CLOSES::add;

    /** Whether {@code linkat(fd, "", ..., AT_EMPTY_PATH)} is allowed (it needs CAP_DAC_READ_SEARCH); else /proc/self/fd. */
    private static volatile boolean linkByDescriptor = true;

    private FfmDescriptors() {
    }

    @Override
    public int openDirectory(Path directory) throws IOException {
        return open(directory, Fcntl.OPEN_DIRECTORY);
    }

    @Override
    public int openDirectoryToWrite(Path directory) throws IOException {
        return open(directory, Fcntl.OPEN_DIRECTORY_TO_WRITE);
    }

    private static int open(Path path, int flags) throws IOException {
        Scratch s = Scratch.get();
        if (!s.pathA(PathBytes.of(path))) {
            throw Errno.forPath(Errno.ENAMETOOLONG, path);
        }
        int fd = openat(s, Fcntl.AT_FDCWD, flags, 0);
        if (fd < 0) {
            throw Errno.forPath(s.errno(), path);
        }
        return fd;
    }

    @Override
    public void readDirectory(int directory, DirectoryEntries into) throws IOException {
        Scratch s = Scratch.get();
        Linking.Memory dirents = s.dirents();
        while (true) {
            long n = LibC.getdents64(s, directory, dirents.address(), dirents.buffer().capacity());
            if (n < 0) {
                int errno = s.errno();
                if (errno == Errno.EINTR) {
                    continue;
                }
                throw new IOException(Errno.message(errno));
            }
            if (n == 0) {
                return;
            }
            Dirents.add(dirents.buffer(), n, into);
        }
    }

    @Override
    public int openFile(int directory, byte[] name) throws IOException {
        return openAt(directory, name, Fcntl.OPEN_ENTRY, 0);
    }

    @Override
    public boolean opensRelative() {
        return true;
    }

    @Override
    public int openDirectory(int directory, byte[] name, boolean follow) throws IOException {
        return openAt(directory, name, Fcntl.openDirectoryAt(follow), 0);
    }

    @Override
    public int openDirectoryToWrite(int directory, byte[] name, boolean follow) throws IOException {
        return openAt(directory, name, Fcntl.openDirectoryToWriteAt(follow), 0);
    }

    @Override
    public OptionalInt openDirectoryBeneath(int directory, byte[] path, boolean toWrite) throws IOException {
        if (!Openat2.available()) {
            return OptionalInt.empty();
        }
        Scratch s = Scratch.get();
        name(s, path);
        s.how(toWrite ? HOW_TO_WRITE : HOW_TO_LIST);
        long fd = LibC.syscall(s, Openat2.NUMBER, directory, s.pathA, s.how, Openat2.HOW_SIZE);
        // Out of descriptors: the closes put off first, as openat does.
        for (int i = 0; fd < 0 && s.errno() == Errno.EMFILE && CLOSES.makeRoom(i); i++) {
            fd = LibC.syscall(s, Openat2.NUMBER, directory, s.pathA, s.how, Openat2.HOW_SIZE);
        }
        if (fd >= 0) {
            return OptionalInt.of((int) fd);
        }
        if (Openat2.unsupported(s.errno())) {
            return OptionalInt.empty();
        }
        throw Errno.forName(s.errno(), path);
    }

    @Override
    public int openEntry(int directory, byte[] name) throws IOException {
        return openAt(directory, name, Fcntl.PIN_ENTRY, 0);
    }

    @Override
    public int openToWrite(int directory, byte[] name, boolean truncate) throws IOException {
        return openAt(directory, name, Fcntl.openToWriteAt(truncate), 0);
    }

    @Override
    public int createFile(int directory, byte[] name, int mode) throws IOException {
        return openAt(directory, name, Fcntl.CREATE_FILE, mode & 07777);
    }

    @Override
    public void renameNoReplace(int fromDirectory, byte[] from, int toDirectory, byte[] to) throws IOException {
        NoReplaceRename.rename(RENAMES, fromDirectory, from, toDirectory, to);
    }

    /**
     * {@code openat(2)} of {@code s.pathA}: the descriptor, or -1 with the errno in {@code s}. Out of
     * descriptors ({@code EMFILE}), it makes the closes put off ({@link CloseBatch#makeRoom}) and
     * tries again.
     */
    private static int openat(Scratch s, int directory, int flags, int mode) {
        int fd = LibC.openat(s, directory, s.pathA, flags, mode);
        for (int i = 0; fd < 0 && s.errno() == Errno.EMFILE && CLOSES.makeRoom(i); i++) {
            fd = LibC.openat(s, directory, s.pathA, flags, mode);
        }
        return fd;
    }

    private static int openAt(int directory, byte[] name, int flags, int mode) throws IOException {
        Scratch s = Scratch.get();
        name(s, name);
        int fd = openat(s, directory, flags, mode);
        if (fd < 0) {
            throw Errno.forName(s.errno(), name);
        }
        return fd;
    }

    @Override
    public FileStatus status(int fd) throws IOException {
        Scratch s = Scratch.get();
        s.pathA(EMPTY);
        if (LibC.statx(s, fd, s.pathA, Fcntl.AT_EMPTY_PATH | Statx.SYNC_AS_STAT, Statx.BASIC_STATS, s.statx) != 0) {
            throw new IOException(Errno.message(s.errno()));
        }
        return Statx.status(s.statxView);
    }

    @Override
    public FileStatus status(int directory, byte[] name) throws IOException {
        Scratch s = Scratch.get();
        name(s, name);
        if (LibC.statx(s, directory, s.pathA, Fcntl.AT_SYMLINK_NOFOLLOW | Statx.SYNC_AS_STAT, Statx.BASIC_STATS, s.statx) != 0) {
            throw Errno.forName(s.errno(), name);
        }
        return Statx.status(s.statxView);
    }

    @Override
    public FileStatus statusIfThere(int directory, byte[] name) throws IOException {
        Scratch s = Scratch.get();
        name(s, name);
        if (LibC.statx(s, directory, s.pathA, Fcntl.AT_SYMLINK_NOFOLLOW | Statx.SYNC_AS_STAT, Statx.BASIC_STATS, s.statx) != 0) {
            int errno = s.errno();
            if (errno == Errno.ENOENT) {
                return null;
            }
            throw Errno.forName(errno, name);
        }
        return Statx.status(s.statxView);
    }

    @Override
    public boolean changeOwner(int fd, int uid, int gid) throws IOException {
        Scratch s = Scratch.get();
        if (LibC.fchown(s, fd, uid, gid) == 0) {
            return true;
        }
        if (s.errno() != Errno.EBADF) {
            return Errno.notThroughDescriptor(s.errno(), fd);
        }
        s.pathA(EMPTY);
        return LibC.fchownat(s, fd, s.pathA, uid, gid, Fcntl.AT_EMPTY_PATH) == 0;
    }

    @Override
    public boolean changeMode(int fd, int mode) throws IOException {
        Scratch s = Scratch.get();
        if (LibC.fchmod(s, fd, mode & 07777) == 0) {
            return true;
        }
        if (s.errno() != Errno.EBADF) {
            return Errno.notThroughDescriptor(s.errno(), fd);
        }
        if (!Fchmodat2.available()) {
            return false;
        }
        s.pathA(EMPTY);
        if (LibC.syscall(s, Fchmodat2.NUMBER, fd, s.pathA, mode & 07777, Fcntl.AT_EMPTY_PATH) == 0) {
            return true;
        }
        Fchmodat2.failed(s.errno());
        return false;
    }

    @Override
    public boolean changeTimes(int fd, java.nio.file.attribute.FileTime lastAccess, java.nio.file.attribute.FileTime lastModified)
            throws IOException {
        Scratch s = Scratch.get();
        s.times(Timespecs.of(lastAccess, lastModified));
        if (LibC.futimens(s, fd, s.times) == 0) {
            return true;
        }
        if (s.errno() != Errno.EBADF) {
            return Errno.notThroughDescriptor(s.errno(), fd);
        }
        s.pathA(EMPTY);
        return LibC.utimensat(s, fd, s.pathA, s.times, Fcntl.AT_EMPTY_PATH) == 0;
    }

    @Override
    public java.util.List<String> listXattrs(int fd) throws IOException {
        Scratch s = Scratch.get();
        return Xattrs.names(Xattrs.readSized(fd, buffer -> buffer == null
                ? LibC.flistxattr(s, fd, 0, 0)
                : FfmExtras.into(s, buffer, LibC.flistxattr(s, fd, s.xattr().address(), FfmExtras.xattrSize(buffer))), s::errno));
    }

    @Override
    public void makeDirectory(int directory, byte[] name, int mode) throws IOException {
        Scratch s = Scratch.get();
        name(s, name);
        if (LibC.mkdirat(s, directory, s.pathA, mode & 07777) != 0) {
            throw Errno.forName(s.errno(), name);
        }
    }

    @Override
    public OptionalInt createUnnamed(int directory, int mode) throws IOException {
        Scratch s = Scratch.get();
        s.pathA(DOT);
        int fd = openat(s, directory, Fcntl.CREATE_UNNAMED, mode & 07777);
        if (fd < 0) {
            int errno = s.errno();
            if (Errno.meansNoUnnamedFiles(errno)) {
                return OptionalInt.empty();
            }
            throw Errno.forName(errno, DOT);
        }
        return OptionalInt.of(fd);
    }

    @Override
    public void linkUnnamed(int fd, int directory, byte[] name) throws IOException {
        Scratch s = Scratch.get();
        if (!s.pathB(name)) {
            throw Errno.forName(Errno.ENAMETOOLONG, name);
        }
        int errno = link(s, fd, directory);
        if (errno != 0) {
            throw Errno.forName(errno, name);
        }
    }

    /**
     * Names the unnamed file {@code fd} with the path at {@link Scratch#pathB} relative to
     * {@code directory} ({@code linkat}): by descriptor where allowed, else through
     * {@code /proc/self/fd/N}, as {@code open(2)} documents. Returns 0, or the errno of the failure.
     */
    static int link(Scratch s, int fd, int directory) {
        if (linkByDescriptor) {
            s.pathA(EMPTY);
            if (LibC.linkat(s, fd, s.pathA, directory, s.pathB, Fcntl.AT_EMPTY_PATH) == 0) {
                return 0;
            }
            int errno = s.errno();
            if (!Errno.meansLinkByDescriptorRefused(errno)) {
                return errno;
            }
            linkByDescriptor = false;
        }
        s.pathA(("/proc/self/fd/" + fd).getBytes(StandardCharsets.US_ASCII));
        return LibC.linkat(s, Fcntl.AT_FDCWD, s.pathA, directory, s.pathB, Fcntl.AT_SYMLINK_FOLLOW) == 0 ? 0 : s.errno();
    }

    @Override
    public void close(int fd) {
        closeNow(fd);
    }

    /** {@link #close(int)} as a static method: a reference to it is made once, not per channel. */
    private static void closeNow(int fd) {
        LibC.close(Scratch.get(), fd);
    }

    @Override
    public FileChannel channel(int fd, boolean readable, boolean writable) {
        return DescriptorChannel.of(fd, readable, writable, writable ? FfmDescriptors::closeWritten : FfmDescriptors::closeNow);
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
        Scratch s = Scratch.get();
        if (LibC.close(s, fd) != 0) {
            Errno.writtenCloseFailed(s.errno());
        }
    }

    @Override
    public void closePutOff() {
        CLOSES.flush();
    }

    /** {@code name} at {@link Scratch#pathA}; {@code ENAMETOOLONG} when it could be no name. */
    private static void name(Scratch s, byte[] name) throws IOException {
        if (!s.pathA(name)) {
            throw Errno.forName(Errno.ENAMETOOLONG, name);
        }
    }
}
