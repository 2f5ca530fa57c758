package dev.cpx.core.copy;

import dev.cpx.core.fs.Effects;
import dev.cpx.core.fs.NewEntries;
import dev.cpx.spi.FileStatus;
import dev.cpx.spi.support.FileDescriptors;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A regular file being created, invisible under its final name until {@link #publish}: either
 * unnamed ({@code O_TMPFILE}, nothing left behind if the process dies) or under its temporary name
 * {@code .NAME.cpx-part} (used for large files so {@code --resume} can continue them, and where
 * unnamed files are not possible). Made by {@link NewFiles}.
 */
final class NewFile {

    private final Effects effects;
    private final FileChannel channel;
    private final Path temp;
    private final long resumedAt;
    /** Made under its final name already ({@link NewFiles#createAtFinalName}): naming it does nothing. */
    private final boolean atFinalName;
    /** Where an unnamed file made relative to its open directory is named; retained until published or abandoned. */
    private final Place place;
    /** What the kernel gave the file where it was made in an open directory this run made ({@link NewEntries}); else null. */
    private final NewEntries madeAs;
    /** Made under its own name in its directory's turn ({@link NewFiles#create}): the turn is this file's no longer. */
    private final boolean madeInTurn;
    /** {@link #place}'s directories released already: {@link #abandon} after a failed {@link #publish} releases nothing more. */
    private boolean released;

    NewFile(Effects effects, FileChannel channel, Path temp, long resumedAt, boolean atFinalName) {
        this(effects, channel, temp, resumedAt, atFinalName, null, null, false);
    }

    /** A file made under its final name {@code target} in {@code place}'s open directory (a staged tree's), in its turn. */
    NewFile(Effects effects, FileChannel channel, Path target, Place place) {
        this(effects, channel, target, 0, true, null, place.directories().newEntries(), true);
    }

    /** An unnamed file in {@code place}'s open directory (which it retains), named there by {@link #publish}. */
    NewFile(Effects effects, FileChannel channel, Place place) {
        this(effects, channel, null, 0, false, place, place.directories().newEntries(), false);
        place.directories().retain();
    }

    private NewFile(Effects effects, FileChannel channel, Path temp, long resumedAt, boolean atFinalName, Place place,
            NewEntries madeAs, boolean madeInTurn) {
        this.effects = effects;
        this.channel = channel;
        this.temp = temp;
        this.resumedAt = resumedAt;
        this.atFinalName = atFinalName;
        this.place = place;
        this.madeAs = madeAs;
        this.madeInTurn = madeInTurn;
    }

    /** What the kernel gave the file as it made it ({@link NewEntries}), where known; else null. */
    NewEntries madeAs() {
        return madeAs;
    }

    /** Bytes already in place from an interrupted copy ({@link NewFiles#continuing}); 0 for a new file. */
    long resumedAt() {
        return resumedAt;
    }

    /** Whether the file is under its final name already (in a staged tree, or a FIFO's copy). */
    boolean atFinalName() {
        return atFinalName;
    }

    /**
     * Whether the file was made under its own name in its directory's turn (in a staged tree): its
     * name is made, in order, and nothing is left to do in that turn.
     */
    boolean madeInTurn() {
        return madeInTurn;
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
        return temp != null && !atFinalName ? temp : Path.of("/proc/self/fd/" + FileDescriptors.of(channel));
    }

    /** Closes the data side where the file can be published without it. */
    void finishWriting() throws IOException {
        if (temp != null) {
            channel.close();
        }
    }

    /**
     * The file's status through its open descriptor, before {@link #publish} closes it: an unnamed
     * file made relative to its open directory; null for the others (their names are looked up).
     */
    FileStatus status() {
        if (place == null || temp != null || atFinalName) {
            return null;
        }
        try {
            return place.directories().descriptors().status(FileDescriptors.of(channel));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Gives the file its final name and releases it. An unnamed file is closed only after it is named
     * (closing it first would free it); where that close reports a write error (a file system that
     * reports them only there), the name is taken back and {@link ClosedAfterNaming} thrown, so no
     * file whose data may be lost stays under its final name.
     */
    void publish(Path target) throws IOException {
        try {
            if (!atFinalName) {
                if (temp != null) {
                    effects.rename(temp, target);
                } else if (place != null) {
                    effects.linkUnnamedAt(channel, place.directories().target(), place.name());
                } else {
                    effects.linkUnnamed(channel, target);
                }
            }
        } catch (IOException | RuntimeException | Error x) {
            abandon(false);
            throw x;
        }
        try {
            channel.close();
        } catch (IOException x) {
            if (!isNamed()) {
                // Unnamed until now (a named file was closed by finishWriting, so its close here does nothing).
                try {
                    effects.remove(target);
                } catch (IOException ignored) {
                    // Reported with the close's error all the same.
                }
                throw new ClosedAfterNaming(x);
            }
            throw x;
        } finally {
            release();
        }
    }

    /** A file's close failed after it got its final name, which {@link #publish} took back. */
    static final class ClosedAfterNaming extends IOException {
        private static final long serialVersionUID = 1L;

        ClosedAfterNaming(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    private void release() {
        if (place != null && !released) {
            released = true;
            place.directories().release();
        }
    }

    /**
     * Gives up on the file. An unnamed file vanishes; a named partial file is deleted unless
     * {@code keepPartial}, which leaves it for {@code --resume}; one made at its final name (a stream's
     * copy) is deleted, as it is not complete.
     */
    void abandon(boolean keepPartial) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing more to lose
        } finally {
            release();
        }
        if (temp != null && (!keepPartial || atFinalName)) {
            try {
                effects.remove(temp);
            } catch (IOException e) {
                // the partial file keeps its temporary name either way
            }
        }
    }
}
