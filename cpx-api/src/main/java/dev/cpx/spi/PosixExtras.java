package dev.cpx.spi;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.IntPredicate;

/**
 * Linux file system operations that NIO cannot express: special files, timestamps of symbolic
 * links to the nanosecond, extended attributes of every namespace (POSIX ACLs live in
 * {@code system.posix_acl_*}), unnamed files. Optional: found with {@link java.util.ServiceLoader};
 * without one the scheduler uses {@link #none()}.
 *
 * <p>"Unsupported here" is a value, never a surprise: a query that cannot be answered returns an
 * empty {@link Optional}/{@link OptionalLong}, and an operation that cannot be done fails with an
 * {@link IOException} whose reason is the kernel's {@code Operation not supported}, as a file system
 * without the feature answers. Extended attribute names are Latin-1 strings, so every byte of a name
 * survives. Methods added after 0.1.0 come with a default and say since when.
 */
public interface PosixExtras {

    /** Support for none of it: what the scheduler uses where no native support loads. */
    static PosixExtras none() {
        return NoPosixExtras.INSTANCE;
    }

    /** Whether the operations work here; must not throw. */
    Availability availability();

    /**
     * Preference among the providers found: the available one of highest priority is used (the first
     * found among equals). The JNA support has 0; one that makes the same calls for less where it can
     * run (the FFM support on JDK 22 and later) has more. Must not load anything native: it is asked
     * before {@link #availability()}, so that a provider passed over never loads its library.
     *
     * @since 0.2.0
     */
    default int priority() {
        return 0;
    }

    /** Creates a FIFO, socket, character or block device ({@code mknod}); {@code mode} includes the file type bits. */
    void makeNode(Path path, int mode, long rdev) throws IOException;

    /** Sets access and modification times to the nanosecond, of the link itself when {@code followLinks} is false. */
    void setTimes(Path path, FileTime lastAccess, FileTime lastModified, boolean followLinks) throws IOException;

    /** Names of the extended attributes of {@code path}. */
    List<String> listXattrs(Path path, boolean followLinks) throws IOException;

    /** Value of one extended attribute. */
    byte[] getXattr(Path path, String name, boolean followLinks) throws IOException;

    /** Sets one extended attribute. */
    void setXattr(Path path, String name, byte[] value, boolean followLinks) throws IOException;

    /** Removes one extended attribute; no error when it is not there. */
    default void removeXattr(Path path, String name, boolean followLinks) throws IOException {
        throw NoPosixExtras.unsupported(path);
    }

    /**
     * Opens a new regular file without a name in {@code directory} ({@code O_TMPFILE}), for reading and writing,
     * with permission bits {@code mode} (the umask applies). The file has no name until
     * {@link #linkUnnamed}; if the process dies first, it vanishes. Empty where the file system
     * cannot do this, so the caller falls back to a temporary name.
     */
    default Optional<FileChannel> createUnnamed(Path directory, int mode) throws IOException {
        return Optional.empty();
    }

    /**
     * Gives a file from {@link #createUnnamed} the name {@code target} ({@code linkat}). Fails with
     * {@link java.nio.file.FileAlreadyExistsException} when the name exists.
     */
    default void linkUnnamed(FileChannel file, Path target) throws IOException {
        throw NoPosixExtras.unsupported(target);
    }

    /**
     * Bytes allocated to the open file ({@code st_blocks * 512}), for the cheap test of whether it
     * has holes; empty where that cannot be told.
     */
    default OptionalLong allocatedBytes(FileChannel file) {
        return OptionalLong.empty();
    }

    /**
     * The type of the file system {@code path} is on, following symbolic links: {@code statfs}'s
     * {@code f_type} (tmpfs is {@code 0x01021994}); empty where that cannot be told, or {@code path}
     * does not exist.
     *
     * @since 0.2.0
     */
    default OptionalLong fileSystemType(Path path) {
        return OptionalLong.empty();
    }

    /**
     * Calls on open descriptors and relative to open directories ({@code openat}, {@code getdents64},
     * {@code fstat}, {@code mkdirat}, {@code O_TMPFILE} and {@code linkat} by descriptor), which the
     * scheduler's hot path uses to copy a file without resolving a whole path; empty where there are
     * none (the scheduler then works with paths).
     *
     * @since 0.2.0
     */
    default Optional<Descriptors> descriptors() {
        return Optional.empty();
    }

    /**
     * Gives {@code SIGQUIT} (Ctrl-\ at a terminal) its default action: it ends the process, as it
     * ends GNU cp, where the JVM would print its threads' stacks on standard output and go on.
     * Nothing is left half-written under a final name that a {@code SIGKILL} would not leave. Returns
     * false where it cannot be done (the JVM's handling then stays).
     *
     * @since 0.2.0
     */
    default boolean quitByDefault() {
        return false;
    }

    /**
     * Whether the C library prints a character (a code point) in the process's locale
     * ({@code iswprint}): how GNU cp's messages decide which characters of a name to show and which to
     * write as escapes. Empty where it cannot be asked; the JDK's Unicode tables, which may be of
     * another Unicode version than the C library's, decide then.
     *
     * @since 0.2.0
     */
    default Optional<IntPredicate> printable() {
        return Optional.empty();
    }
}
