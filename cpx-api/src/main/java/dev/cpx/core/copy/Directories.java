package dev.cpx.core.copy;

import dev.cpx.api.Attribute;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.core.decide.CreationModes;
import dev.cpx.core.decide.Entry;
import dev.cpx.core.finish.Metadata;
import dev.cpx.core.finish.ResumeMarker;
import dev.cpx.core.fs.Effects;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.fs.TempNames;
import dev.cpx.core.fs.Umask;
import dev.cpx.core.run.RunContext;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;

/** Creating destination directories, and giving them their final attributes once their contents are done. */
public final class Directories {

    /** What happened to a destination directory. */
    public enum State {
        /** Made by this run. */
        CREATED,
        /** Was there already; its contents are merged. */
        EXISTED,
        /** Could not be made; nothing below it is copied. */
        FAILED
    }

    private final RunContext context;
    private final Destinations destinations;
    private final Metadata metadata;
    private final ResumeMarker resumeMarker;
    /** Directories marked as the copy of their operand ({@code --resume}), until they are finished. */
    private final java.util.Set<Path> marked = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public Directories(RunContext context, Destinations destinations, Metadata metadata, ResumeMarker resumeMarker) {
        this.context = context;
        this.destinations = destinations;
        this.metadata = metadata;
        this.resumeMarker = resumeMarker;
    }

    /**
     * Creates {@code e}'s destination directory; {@code markAsCopy} marks it as the copy of the
     * operand for {@code --resume} (see {@link ResumeMarker}): it is then made under its temporary
     * name, marked, and renamed, so it never exists under its name without the mark.
     */
    public State create(Entry e, boolean markAsCopy) {
        if (!e.placement().absent()) {
            // GNU's checks first: the same directory, a non-directory in the way.
            Destinations.Decision d = destinations.prepare(e);
            switch (d.action()) {
                case SKIP -> {
                    return State.FAILED;
                }
                case EXISTING, DONE -> {
                    context.outcomes().merged();
                    return State.EXISTED;
                }
                default -> {
                    // Absent: made below.
                }
            }
        }
        Path dst = e.target();
        int mode = CreationModes.directoryWhileCopying(e.stat(), context.options());
        try {
            if (markAsCopy && context.effects().changes() && resumeMarker.possible()) {
                createMarked(dst, e.stat(), mode);
                marked.add(dst);
            } else {
                context.effects().createDirectory(dst, mode);
            }
            context.outcomes().copied(EntryKind.DIRECTORY, e.source(), dst, 0);
            return State.CREATED;
        } catch (FileAlreadyExistsException x) {
            // Made by something else since it was looked at.
            Stat now = context.anchors().statOrNull(dst);
            if (now != null && now.isDirectory()) {
                context.outcomes().merged();
                return State.EXISTED;
            }
            context.outcomes().failed(EntryKind.DIRECTORY, e.source(), dst,
                    Diagnostic.of("cannot overwrite non-directory {0} with directory {1}", dst, e.source()));
            return State.FAILED;
        } catch (IOException x) {
            context.outcomes().failed(EntryKind.DIRECTORY, e.source(), dst,
                    Diagnostic.of("cannot create directory {0}", dst, Diagnostic.reasonOf(x)));
            return State.FAILED;
        }
    }

    private void createMarked(Path dst, Stat st, int mode) throws IOException {
        Effects effects = context.effects();
        Path temp = TempNames.of(PathBytes.withoutTrailingSlashes(dst));
        try {
            effects.createDirectory(temp, mode);
        } catch (FileAlreadyExistsException x) {
            // Left empty by a run killed between its mkdir and its rename: take it over.
            effects.remove(temp);
            effects.createDirectory(temp, mode);
        }
        resumeMarker.mark(temp, st);
        try {
            effects.rename(temp, dst);
        } catch (IOException x) {
            effects.remove(temp);
            throw context.anchors().lstatOrNull(dst) != null ? new FileAlreadyExistsException(dst.toString()) : x;
        }
    }

    /** After everything below the directory is done: mode, ownership and times, as the options ask. */
    public void finish(Entry e, State state) {
        finish(e, state, e.target());
    }

    /**
     * {@link #finish(Entry, State)} through {@code target}: the copy's path, or where it is held open,
     * the path of its descriptor ({@code /proc/self/fd/N}), which reaches the directory this run
     * copied into whatever happened to its name meanwhile.
     */
    public void finish(Entry e, State state, Path target) {
        if (state == State.FAILED) {
            return;
        }
        Path dst = e.target();
        if (marked.remove(dst) && !context.cancelled()) {
            // The copy ran to its end (failures included): the mark goes, before a read-only mode would keep it.
            resumeMarker.clear(target);
        }
        Stat now = context.anchors().statOrNull(target);
        metadata.apply(e.source(), target, dst, e.stat(), false, true, now == null ? 0 : now.permissions());
        if (!context.options().preserves(Attribute.MODE) && state == State.CREATED) {
            // The owner bits added while copying come off again.
            int wanted = now == null ? -1
                    : CreationModes.directoryFinalMode(CreationModes.of(e.stat(), context.options()), Umask.get(), now.permissions());
            if (wanted >= 0) {
                metadata.chmod(e.source(), target, dst, wanted);
            }
        }
        if (context.options().fsync()) {
            sync(e.source(), dst, target);
        }
    }

    /** {@code --fsync}: makes a directory's entries durable (its files were synced before they got their names). */
    public void sync(Path src, Path dst) {
        sync(src, dst, dst);
    }

    /** {@link #sync(Path, Path)} of the directory reached by {@code reach}. */
    private void sync(Path src, Path dst, Path reach) {
        try {
            context.effects().syncDirectory(reach);
        } catch (IOException x) {
            context.outcomes().failed(EntryKind.DIRECTORY, src, dst, Diagnostic.of("cannot sync {0}", dst, Diagnostic.reasonOf(x)));
        }
    }
}
