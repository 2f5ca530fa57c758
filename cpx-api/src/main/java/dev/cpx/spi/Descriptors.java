package dev.cpx.spi;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * File system calls on open descriptors and relative to an open directory (the {@code *at} family):
 * each resolves one name in a directory already open instead of a whole path, and a directory is
 * listed with each entry's type ({@code getdents64}), so a regular file needs no {@code stat} before
 * it is opened. What the scheduler's hot path is made of, where {@link PosixExtras#descriptors()} has
 * them; everything else, and every case these do not cover, goes through paths.
 *
 * <p>Each method is one thin system call (two for {@link #readDirectory}'s loop); the decisions are
 * the caller's. Descriptors are plain {@code int}s, owned by whoever opened them until
 * {@link #close} (or a {@link #channel} made of them) closes them. A failure is an
 * {@link IOException} whose reason is the kernel's ({@code strerror}), of the {@code java.nio.file}
 * type the JDK would use (e.g. {@link java.nio.file.NoSuchFileException}). Names are their exact
 * bytes, without a NUL. Thread safe.
 *
 * @since 0.2.0
 */
public interface Descriptors {

    /**
     * Opens a directory to list and to open entries in ({@code open(O_RDONLY | O_DIRECTORY | O_CLOEXEC)}),
     * following symbolic links as a path does.
     */
    int openDirectory(Path directory) throws IOException;

    /**
     * Opens a directory to make entries in ({@code open(O_PATH | O_DIRECTORY | O_CLOEXEC)}): no read
     * permission needed, nothing read.
     */
    int openDirectoryToWrite(Path directory) throws IOException;

    /**
     * Whether {@link #openDirectory(int, byte[], boolean)}, {@link #openDirectoryToWrite(int, byte[], boolean)},
     * {@link #openEntry} and {@link #openToWrite} work: where they do, the scheduler reaches every
     * directory below a command-line operand relative to its parent's descriptor (see
     * docs/security.md); where they do not, by its path.
     *
     * @since 0.3.0
     */
    default boolean opensRelative() {
        return false;
    }

    /**
     * Opens the directory {@code name} in {@code directory} to list and to open entries in
     * ({@code openat(O_RDONLY | O_DIRECTORY | O_CLOEXEC)}, with {@code O_NOFOLLOW} unless {@code follow}):
     * a symbolic link put in its place is not followed unless asked ({@code ELOOP}).
     *
     * @since 0.3.0
     */
    default int openDirectory(int directory, byte[] name, boolean follow) throws IOException {
        throw NoPosixExtras.unsupported(null);
    }

    /**
     * Opens the directory {@code path} (names joined by {@code /}: no empty name, {@code .} or
     * {@code ..}) below {@code directory} in one call, never through a symbolic link on the way:
     * to list ({@code toWrite} false, as {@link #openDirectory(int, byte[], boolean)}) or to make
     * entries in (as {@link #openDirectoryToWrite(int, byte[], boolean)}); {@code openat2} with
     * {@code RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH} ({@link dev.cpx.spi.support.Openat2}), failing
     * with {@code ELOOP} at a link. Empty where this engine or kernel has no such call: the caller
     * then opens one name at a time.
     *
     * @since 0.3.0
     */
    default java.util.OptionalInt openDirectoryBeneath(int directory, byte[] path, boolean toWrite) throws IOException {
        return java.util.OptionalInt.empty();
    }

    /**
     * Opens the directory {@code name} in {@code directory} to make entries in
     * ({@code openat(O_PATH | O_DIRECTORY | O_CLOEXEC)}, with {@code O_NOFOLLOW} unless {@code follow}).
     *
     * @since 0.3.0
     */
    default int openDirectoryToWrite(int directory, byte[] name, boolean follow) throws IOException {
        throw NoPosixExtras.unsupported(null);
    }

    /**
     * Opens the entry {@code name} in {@code directory} itself, whatever it is, a symbolic link
     * included ({@code openat(O_PATH | O_NOFOLLOW | O_CLOEXEC)}): a handle on that one inode, whose
     * attributes are then changed through {@code /proc/self/fd/N} (as glibc's {@code lchmod} does), so
     * that no name is resolved again in between.
     *
     * @since 0.3.0
     */
    default int openEntry(int directory, byte[] name) throws IOException {
        throw NoPosixExtras.unsupported(null);
    }

    /**
     * A new regular file {@code name} in {@code directory}, open to read and write
     * ({@code openat(O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC)}), with these permission
     * bits (the umask applies); fails with {@link java.nio.file.FileAlreadyExistsException} when the
     * name exists.
     *
     * @since 0.3.0
     */
    default int createFile(int directory, byte[] name, int mode) throws IOException {
        throw NoPosixExtras.unsupported(null);
    }

    /**
     * Opens the existing {@code name} in {@code directory} to write into it in place
     * ({@code openat(O_WRONLY | O_CLOEXEC)}, with {@code O_TRUNC} when {@code truncate}), as GNU cp
     * opens a destination it overwrites: a symbolic link there is followed, a FIFO waits for its
     * reader; fails with {@link java.nio.file.NoSuchFileException} when nothing is there.
     *
     * @since 0.3.0
     */
    default int openToWrite(int directory, byte[] name, boolean truncate) throws IOException {
        throw NoPosixExtras.unsupported(null);
    }

    /**
     * Renames {@code from} in {@code fromDirectory} to {@code to} in {@code toDirectory}, never
     * replacing what {@code to} names ({@code renameat2(RENAME_NOREPLACE)}): fails with
     * {@link java.nio.file.FileAlreadyExistsException} when it exists.
     *
     * @since 0.3.0
     */
    default void renameNoReplace(int fromDirectory, byte[] from, int toDirectory, byte[] to) throws IOException {
        throw NoPosixExtras.unsupported(null);
    }

    /** All the entries of an open directory ({@code getdents64} until its end), "." and ".." left out, added to {@code into}. */
    void readDirectory(int directory, DirectoryEntries into) throws IOException;

    /**
     * Opens {@code name} in {@code directory} to read it
     * ({@code openat(O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)}): never follows a symbolic link
     * (fails with {@code ELOOP}) and never waits (a FIFO put there meanwhile opens at once; its
     * {@link #status(int)} tells).
     */
    int openFile(int directory, byte[] name) throws IOException;

    /** The attributes of an open file ({@code fstat}). */
    FileStatus status(int fd) throws IOException;

    /** The attributes of {@code name} in {@code directory}, of a symbolic link itself ({@code fstatat(AT_SYMLINK_NOFOLLOW)}). */
    FileStatus status(int directory, byte[] name) throws IOException;

    /**
     * {@link #status(int, byte[])}, or null when nothing has that name ({@code ENOENT}), without an
     * exception then: for looking whether a destination is there, where "not there" is the common
     * answer and an exception per file costs more than the call. Any other failure is thrown.
     * {@code directory} may be {@code AT_FDCWD} with a whole path as {@code name}.
     *
     * @since 0.3.0
     */
    default FileStatus statusIfThere(int directory, byte[] name) throws IOException {
        try {
            return status(directory, name);
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
    }

    /**
     * {@code fchown}: the owner and group of an open file at once; false where this implementation
     * cannot (the caller then changes them by path, as before). A file held by an {@code O_PATH}
     * descriptor ({@link #openDirectoryToWrite}), which {@code fchown} refuses, is changed by
     * {@code fchownat(fd, "", AT_EMPTY_PATH)}.
     *
     * @since 0.3.0
     */
    default boolean changeOwner(int fd, int uid, int gid) throws IOException {
        return false;
    }

    /**
     * {@code fchmod}: the permission bits (set-uid, set-gid and sticky included) of an open file;
     * false where this implementation cannot. Of a file held by an {@code O_PATH} descriptor, by
     * {@code fchmodat2(fd, "", AT_EMPTY_PATH)} where the kernel has it (Linux 6.6), else false.
     *
     * @since 0.3.0
     */
    default boolean changeMode(int fd, int mode) throws IOException {
        return false;
    }

    /**
     * {@code futimens}: the access and modification times of an open file, to the nanosecond; false
     * where this implementation cannot. Of a file held by an {@code O_PATH} descriptor, by
     * {@code utimensat(fd, "", AT_EMPTY_PATH)}, else false.
     *
     * @since 0.3.0
     */
    default boolean changeTimes(int fd, java.nio.file.attribute.FileTime lastAccess, java.nio.file.attribute.FileTime lastModified)
            throws IOException {
        return false;
    }

    /**
     * {@code flistxattr}: the names of the extended attributes of the open file {@code fd} (Latin-1,
     * one char per byte, as {@link PosixExtras#listXattrs}); null where this implementation cannot
     * (the caller then lists them by path). Failures are thrown as for {@code /proc/self/fd/FD}.
     *
     * @since 0.3.0
     */
    default java.util.List<String> listXattrs(int fd) throws IOException {
        return null;
    }

    /** {@code mkdirat}: a directory {@code name} in {@code directory} with these permission bits (the umask applies). */
    void makeDirectory(int directory, byte[] name, int mode) throws IOException;

    /**
     * A new regular file without a name in {@code directory} ({@code openat(".", O_TMPFILE | O_RDWR)}),
     * with these permission bits (the umask applies); empty where the file system has no unnamed files.
     */
    OptionalInt createUnnamed(int directory, int mode) throws IOException;

    /**
     * Names the unnamed file {@code fd} {@code name} in {@code directory} ({@code linkat}); fails with
     * {@link java.nio.file.FileAlreadyExistsException} when the name exists.
     */
    void linkUnnamed(int fd, int directory, byte[] name) throws IOException;

    /** Closes a descriptor; errors are ignored (nothing is left to do about them). */
    void close(int fd);

    /**
     * A channel that owns {@code fd} (closing it closes {@code fd}; where it is writable, a failed
     * {@code close} is its close's {@link IOException}: NFS, CIFS and FUSE file systems report a write
     * error only there), for a {@link CopyRequest}. It is
     * cheap where an engine only takes the descriptor back
     * ({@link dev.cpx.spi.support.FileDescriptors#of}); NIO's own channel behind it is made only when
     * a channel operation is used (see {@link dev.cpx.spi.support.DescriptorChannel}).
     */
    FileChannel channel(int fd, boolean readable, boolean writable);

    /**
     * {@link #close}, for a regular file or a directory, whose close nobody waits for (unlike a
     * FIFO's writer's or a device's): the engine may put it off, to close it with others in one
     * system call ({@link dev.cpx.spi.support.CloseBatch}), at the latest by {@link #closePutOff()}.
     *
     * @since 0.4.0
     */
    default void closeLater(int fd) {
        close(fd);
    }

    /**
     * {@link #channel}, closed {@link #closeLater}: for a regular file only read, or written where
     * its close cannot report a write error (the caller knows the file system; see
     * {@link #channel}), so that nothing is lost when it is put off.
     *
     * @since 0.4.0
     */
    default FileChannel channelClosedLater(int fd, boolean readable, boolean writable) {
        return channel(fd, readable, writable);
    }

    /**
     * Closes the descriptors {@link #closeLater} put off; the scheduler calls it when a run ends.
     *
     * @since 0.4.0
     */
    default void closePutOff() {
    }
}
