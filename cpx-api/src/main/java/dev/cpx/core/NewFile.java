package dev.cpx.core;

import dev.cpx.spi.PosixExtras;
import dev.cpx.spi.support.FileDescriptors;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * A regular file being created, invisible under its final name until {@link #publish}: either
 * unnamed ({@code O_TMPFILE}, nothing left behind if the process dies) or under its temporary name
 * {@code .NAME.cpx-part} (used for large files so {@code --resume} can continue them, and where
 * unnamed files are not possible).
 */
final class NewFile {

    private static final Set<OpenOption> CREATE_TEMP = Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE,
            StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);
    private static final Set<OpenOption> CONTINUE_TEMP = Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS);

    private final FileChannel channel;
    private final Path temp;
    private final PosixExtras extras;
    private final long resumedAt;

    private NewFile(FileChannel channel, Path temp, PosixExtras extras, long resumedAt) {
        this.channel = channel;
        this.temp = temp;
        this.extras = extras;
        this.resumedAt = resumedAt;
    }

    /**
     * {@code --resume}: the partial file an interrupted copy left under {@code target}'s temporary
     * name, cut to the part that is trusted: all but its last {@link RangedCopy#WINDOW} bytes, when
     * the end of that part matches {@code source}. Null when there is none, or it cannot be trusted
     * (then it is started anew).
     */
    static NewFile continuing(Path target, FileChannel source) throws IOException {
        Path temp = TempNames.of(target);
        FileChannel channel;
        try {
            channel = FileChannel.open(temp, CONTINUE_TEMP);
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
        // Its last bytes may have gaps (ranges copied at once, RangedCopy.WINDOW): only what lies
        // before them is trusted, once its end is seen to match the source.
        long size = channel.size();
        long trusted = Math.max(0, size - RangedCopy.WINDOW);
        int overlap = (int) Math.min(trusted, 64 << 10);
        if (size <= source.size() && (trusted == 0 || Verifier.sameRange(source, channel, trusted - overlap, overlap))) {
            channel.truncate(trusted);
            return new NewFile(channel, temp, null, trusted);
        }
        channel.close();
        return null;
    }

    /** Bytes already in place from an interrupted copy ({@link #continuing}); 0 for a new file. */
    long resumedAt() {
        return resumedAt;
    }

    /**
     * Opens a new file that will become {@code target}, with permission bits {@code mode} (the umask
     * applies). Named when {@code resumable} or when the file system has no unnamed files.
     */
    static NewFile create(CopyRun run, Path target, int mode, boolean resumable) throws IOException {
        if (!resumable && run.extras != null && run.unnamedFiles) {
            Path dir = target.getParent() == null ? Path.of(".") : target.getParent();
            FileChannel unnamed = run.extras.createUnnamed(dir, mode & 0777);
            if (unnamed != null) {
                return new NewFile(unnamed, null, run.extras, 0);
            }
            run.unnamedFiles = false;
        }
        Path temp = TempNames.of(target);
        return new NewFile(FileChannel.open(temp, CREATE_TEMP, Permissions.attribute(mode)), temp, null, 0);
    }

    /** Whether the file has a temporary name (and no open descriptor is needed to publish it). */
    boolean isNamed() {
        return temp != null;
    }

    FileChannel channel() {
        return channel;
    }

    /** A path to set attributes through before the file is published (follow links on it). */
    Path attributesPath() {
        return temp != null ? temp : Path.of("/proc/self/fd/" + FileDescriptors.of(channel));
    }

    /** Closes the data side where the file can be published without it. */
    void finishWriting() throws IOException {
        if (temp != null) {
            channel.close();
        }
    }

    /** Gives the file its final name and releases it. */
    void publish(Path target) throws IOException {
        try {
            if (temp != null) {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            } else {
                extras.linkUnnamed(channel, target);
            }
        } finally {
            channel.close();
        }
    }

    /**
     * Gives up on the file. An unnamed file vanishes; a named partial file is deleted unless
     * {@code keepPartial}, which leaves it for {@code --resume}.
     */
    void abandon(boolean keepPartial) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing more to lose
        }
        if (temp != null && !keepPartial) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException e) {
                // the partial file keeps its temporary name either way
            }
        }
    }
}
