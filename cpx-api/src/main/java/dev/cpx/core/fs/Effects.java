package dev.cpx.core.fs;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Optional;
import java.util.Set;

/**
 * Every change the scheduler makes to the destination goes through here: creating, linking,
 * renaming, removing, and setting attributes. Reading the source or looking at the destination
 * does not. {@link #live} makes the changes; {@link #dryRun} makes none (for {@code --dry-run}),
 * so the rest of the scheduler runs the same course either way.
 */
public interface Effects {

    /**
     * The effects that make the changes, with native support where {@code extras} has it, each
     * reaching its path through the directory {@code anchors} hold open for it.
     */
    static Effects live(dev.cpx.spi.PosixExtras extras, Anchors anchors) {
        return new LiveEffects(extras, anchors);
    }

    /** Effects that change nothing: {@code --dry-run}. */
    static Effects dryRun() {
        return new DryRunEffects();
    }

    /** Whether changes are made (false for a dry run, where what would be done is only reported). */
    boolean changes();

    /** {@code mkdir} with these permission bits (the umask applies). */
    void createDirectory(Path dir, int mode) throws IOException;

    /** {@code symlink}: a symbolic link at {@code link} whose text is {@code target}. */
    void createSymbolicLink(Path link, Path target) throws IOException;

    /** {@code link}: another name for {@code existing} (not following a symbolic link). */
    void createLink(Path link, Path existing) throws IOException;

    /** {@code mknod}: a FIFO, socket or device; {@code mode} includes the file type bits. */
    void makeNode(Path path, int mode, long rdev) throws IOException;

    /** {@code rename}, replacing what {@code to} names. */
    void rename(Path from, Path to) throws IOException;

    /** {@code unlink} or {@code rmdir}; no error when nothing is there. Returns whether something was removed. */
    boolean remove(Path path) throws IOException;

    /** Access and modification times to the nanosecond, of the link itself unless {@code follow}. */
    void setTimes(Path path, FileTime atime, FileTime mtime, boolean follow) throws IOException;

    /** Owner and group ({@code chown}), of the link itself unless {@code follow}. */
    void setOwner(Path path, int uid, int gid, boolean follow) throws IOException;

    /** The group alone ({@code chown -1 gid}). */
    void setGroup(Path path, int gid, boolean follow) throws IOException;

    /** All permission bits, set-uid, set-gid and sticky included ({@code chmod}; never of a symbolic link). */
    void setMode(Path path, int mode) throws IOException;

    /** One extended attribute (following links). */
    void setXattr(Path path, String name, byte[] value) throws IOException;

    /** Removes one extended attribute (following links); no error when it is not there. */
    void removeXattr(Path path, String name) throws IOException;

    /**
     * A new file without a name in {@code directory} ({@code O_TMPFILE}), read-write, with these
     * permission bits; empty where the file system or the native support cannot make one.
     */
    Optional<FileChannel> createUnnamed(Path directory, int mode) throws IOException;

    /** Names a file from {@link #createUnnamed} ({@code linkat}); fails when {@code target} exists. */
    void linkUnnamed(FileChannel file, Path target) throws IOException;

    /** {@code mkdirat}: a directory {@code name} in the open directory {@code directory}, with these permission bits (the umask applies). */
    void createDirectoryAt(int directory, byte[] name, int mode) throws IOException;

    /**
     * {@link #createUnnamed} relative to the open directory {@code directories.target()} (see
     * {@link dev.cpx.spi.Descriptors#createUnnamed}); empty where it cannot be made that way.
     */
    Optional<FileChannel> createUnnamedAt(DirectoryPair directories, int mode) throws IOException;

    /** Names a file from {@link #createUnnamedAt} {@code name} in the open directory {@code directory}; fails when the name exists. */
    void linkUnnamedAt(FileChannel file, int directory, byte[] name) throws IOException;

    /**
     * A new regular file {@code name} in the open directory {@code directories.target()}, read-write,
     * with these permission bits; fails when the name exists ({@link dev.cpx.spi.Descriptors#createFile}).
     */
    FileChannel createFileAt(DirectoryPair directories, byte[] name, int mode) throws IOException;

    /** {@code rename}, never replacing what {@code to} names (fails when it exists). */
    void renameNoReplace(Path from, Path to) throws IOException;

    /** Opens (creating or truncating as {@code options} say) a file to write. */
    FileChannel open(Path path, Set<? extends OpenOption> options, int mode) throws IOException;

    /** Makes a directory's entries durable ({@code fsync} of the directory). */
    void syncDirectory(Path dir) throws IOException;
}
