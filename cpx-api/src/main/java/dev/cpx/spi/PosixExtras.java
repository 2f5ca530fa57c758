package dev.cpx.spi;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;

/**
 * Linux file system operations that NIO cannot express: special files, timestamps of symbolic
 * links to the nanosecond, and extended attributes of every namespace (POSIX ACLs live in
 * {@code system.posix_acl_*}). Optional: found with {@link java.util.ServiceLoader}; without one
 * the scheduler reports what it cannot do instead of failing.
 *
 * <p>Extended attribute names are Latin-1 strings, so every byte of a name survives.
 */
public interface PosixExtras {

    /** Whether the operations work here; must not throw. */
    Availability availability();

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
        throw new UnsupportedOperationException("removeXattr");
    }

    /**
     * Opens a new regular file without a name in {@code directory} ({@code O_TMPFILE}), for reading and writing,
     * with permission bits {@code mode} (the umask applies). The file has no name until
     * {@link #linkUnnamed}; if the process dies first, it vanishes. Returns null where the file
     * system cannot do this, so the caller falls back to a temporary name.
     */
    default FileChannel createUnnamed(Path directory, int mode) throws IOException {
        return null;
    }

    /**
     * Gives a file from {@link #createUnnamed} the name {@code target} ({@code linkat}). Fails with
     * {@link java.nio.file.FileAlreadyExistsException} when the name exists.
     */
    default void linkUnnamed(FileChannel file, Path target) throws IOException {
        throw new UnsupportedOperationException("linkUnnamed");
    }

    /**
     * Bytes allocated to the open file ({@code st_blocks * 512}), for the cheap test of whether it
     * has holes; -1 where that cannot be told.
     */
    default long allocatedBytes(FileChannel file) {
        return -1;
    }
}
