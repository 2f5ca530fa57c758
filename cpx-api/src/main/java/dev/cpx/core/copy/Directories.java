package dev.cpx.core.copy;

import dev.cpx.api.Attribute;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.core.decide.CreationModes;
import dev.cpx.core.decide.Entry;
import dev.cpx.core.finish.Metadata;
import dev.cpx.core.finish.ResumeMarker;
import dev.cpx.core.fs.Anchors;
import dev.cpx.core.fs.Effects;
import dev.cpx.core.fs.NewEntries;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.fs.TempNames;
import dev.cpx.core.fs.Umask;
import dev.cpx.core.run.RunContext;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.List;

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
    /** Directories marked as the copy of their operand ({@code --resume}), until they are finished; without trailing slashes. */
    private final java.util.Set<Path> marked = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Copies of operands being made under their staging names, by their final paths, until renamed into place. */
    private final java.util.Map<Path, Path> staging = new java.util.concurrent.ConcurrentHashMap<>();

    public Directories(RunContext context, Destinations destinations, Metadata metadata, ResumeMarker resumeMarker) {
        this.context = context;
        this.destinations = destinations;
        this.metadata = metadata;
        this.resumeMarker = resumeMarker;
    }

    /**
     * Refuses to copy {@code e}, a directory met again through a symbolic link that {@code -L} follows
     * (it would copy forever): as GNU cp, its destination's checks first (a non-directory there is
     * said as such), then "cannot copy cyclic symbolic link". Nothing is made.
     */
    public void refuseCycle(Entry e) {
        if (e.placement().absent() || !destinations.refused(e)) {
            context.outcomes().failed(EntryKind.DIRECTORY, e.source(), e.target(),
                    Diagnostic.of("cannot copy cyclic symbolic link {0}", e.source()));
        }
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
        Path named = PathBytes.withoutTrailingSlashes(dst);
        if (named != dst && context.anchors().lstatOrNull(named) != null) {
            // "d/" where d is a dangling link: mkdir finds the name taken, before anything is copied.
            context.outcomes().failed(EntryKind.DIRECTORY, e.source(), dst,
                    Diagnostic.of("cannot create directory {0}", dst, "File exists"));
            return State.FAILED;
        }
        try {
            if (stages(e) && context.anchors().lstatOrNull(named) == null) {
                // (Where something is at the final name already, a dangling link say, the directory is made
                // there as without staging, and fails as GNU cp fails.) Its -v line names it as given.
                return createStaged(e, named, dst, mode);
            }
            if (markAsCopy && context.effects().changes() && resumeMarker.possible()) {
                createMarked(dst, e.stat(), mode);
                marked.add(named);
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

    /**
     * Whether the copy of {@code e} is made under a staging name and renamed into place once complete
     * (see {@link #createStaged}): a new directory for a command-line operand, copied as data, where
     * directories are held open ({@link dev.cpx.core.fs.Anchors}). Not with {@code --parents}, whose
     * copies go into directories made on the way. {@code -Dcpx.staging=false} turns it off (to measure).
     */
    private boolean stages(Entry e) {
        return STAGING && e.placement() == dev.cpx.core.decide.Placement.OPERAND && context.anchors().active()
                && context.effects().changes() && context.options().mode() == dev.cpx.api.CopyMode.DATA
                && !context.options().parents();
    }

    private static final boolean STAGING = Boolean.parseBoolean(System.getProperty("cpx.staging", "true"));

    /**
     * Makes the copy of a directory operand under its staging name {@code .NAME.cpx-part} next to
     * {@code dst}, marked as the copy of its source (for {@code --resume}): everything in it is made
     * under its own name at once, and the whole tree gets its final name when complete
     * ({@link #finish}). With {@code --resume}, one an interrupted run left, marked as the copy of the
     * same source, is continued; one left otherwise is reported, never removed or used. {@code asGiven}:
     * {@code dst} as the command line wrote it (a trailing slash kept), for its {@code -v} line.
     */
    private State createStaged(Entry e, Path dst, Path asGiven, int mode) throws IOException {
        Effects effects = context.effects();
        Path temp = TempNames.of(dst);
        try {
            effects.createDirectory(temp, mode);
        } catch (FileAlreadyExistsException x) {
            if (context.options().resume() && resumeMarker.isCopyOf(temp, e.stat())) {
                staging.put(dst, temp);
                context.anchors().stage(dst, temp);
                marked.add(dst);
                context.outcomes().merged();
                return State.EXISTED;
            }
            try {
                // Left empty by a run killed between its mkdir and its mark: take it over.
                effects.remove(temp);
            } catch (IOException notEmpty) {
                context.outcomes().failed(EntryKind.DIRECTORY, e.source(), dst, new Diagnostic(
                        "cannot create directory {0}: the unfinished copy of an earlier run is in {1}", List.of(dst, temp),
                        context.options().resume() ? "it is not the unfinished copy of this source: remove it"
                                : "run the same command with --resume to finish it, or remove it"));
                return State.FAILED;
            }
            effects.createDirectory(temp, mode);
        }
        if (resumeMarker.possible()) {
            resumeMarker.mark(temp, e.stat());
            marked.add(dst);
        }
        staging.put(dst, temp);
        context.anchors().stage(dst, temp);
        context.outcomes().copied(EntryKind.DIRECTORY, e.source(), asGiven, 0);
        return State.CREATED;
    }

    /** The staging name the copy {@code target} is being made under; null where it is made under its own. */
    public Path stagedAs(Path target) {
        return staging.isEmpty() ? null : staging.get(PathBytes.withoutTrailingSlashes(target));
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
        finish(e, state, -1, -1, 0);
    }

    /**
     * {@link #finish(Entry, State)} of a copy held open as {@code fd} (-1: reached by its path), its
     * source as {@code sourceFd} (-1: by its path): the directories this run copied, whatever happened
     * to their names meanwhile. The copy's attributes are read from its descriptor, and what it has
     * already of what it gets is not set again ({@link NewEntries#kept}: its owner, its plain mode);
     * {@code already}: {@link NewEntries#NO_ACL}, no ACL to remove. The source's extended attributes are
     * listed through its descriptor. The copy's path ({@code /proc/self/fd/N}) is made only where
     * something is changed through it.
     */
    public void finish(Entry e, State state, int sourceFd, int fd, int already) {
        if (state == State.FAILED) {
            return;
        }
        Path dst = e.target();
        // (Marked by its name: "d/" as the command line wrote it is the same copy.)
        if (marked.remove(PathBytes.withoutTrailingSlashes(dst)) && !context.cancelled()) {
            // The copy ran to its end (failures included): the mark goes, before a read-only mode would keep it.
            resumeMarker.clear(reach(dst, fd));
        }
        Stat now = statOrNull(dst, fd);
        if (metadata.changesAny()) {
            metadata.apply(e.source(), sourceFd >= 0 ? Anchors.self(sourceFd) : null, reach(dst, fd), dst, e.stat(), false, true,
                    now == null ? 0 : now.permissions(), false, now == null ? already : NewEntries.kept(now, e.stat(), already));
        }
        if (!context.options().preserves(Attribute.MODE) && state == State.CREATED) {
            // The owner bits added while copying come off again.
            int wanted = now == null ? -1
                    : CreationModes.directoryFinalMode(CreationModes.of(e.stat(), context.options()), Umask.get(), now.permissions());
            if (wanted >= 0) {
                metadata.chmod(e.source(), reach(dst, fd), dst, wanted);
            }
        }
        if (context.options().fsync()) {
            sync(e.source(), dst, reach(dst, fd));
        }
        Path temp = staging.isEmpty() ? null : staging.remove(PathBytes.withoutTrailingSlashes(dst));
        if (temp != null) {
            publish(e, PathBytes.withoutTrailingSlashes(dst), temp, fd);
        }
    }

    /** The copy {@code dst}: through its open descriptor {@code fd} where it is held, else by its path. */
    private static Path reach(Path dst, int fd) {
        return fd >= 0 ? Anchors.self(fd) : dst;
    }

    /** The attributes of the copy {@code dst}, read as {@link #reach} reaches it; null when they cannot be. */
    private Stat statOrNull(Path dst, int fd) {
        return fd >= 0 ? context.anchors().statOrNull(fd) : context.anchors().statOrNull(dst);
    }

    /**
     * Gives a staged copy its final name, never replacing what got that name meanwhile; an
     * interrupted copy keeps its staging name, and says where it is. {@code fd}: the copy held open
     * (-1: reached by its path {@code e.target()}).
     */
    private void publish(Entry e, Path dst, Path temp, int fd) {
        if (context.cancelled()) {
            context.outcomes().warning(Diagnostic.of("{0} is not complete: what was copied is in {1}", dst, temp));
            return;
        }
        Stat made = statOrNull(e.target(), fd);
        Stat there = context.anchors().lstatOrNull(temp);
        if (made == null || !made.sameFile(there)) {
            // Renamed away (and maybe something else put in its place) by someone else: that is not renamed.
            context.outcomes().failed(EntryKind.DIRECTORY, e.source(), dst, Diagnostic.of(
                    "cannot create directory {0}: its copy is no longer at {1}", dst, temp));
            return;
        }
        try {
            context.effects().renameNoReplace(temp, dst);
            context.anchors().unstage(dst);
        } catch (IOException x) {
            context.outcomes().failed(EntryKind.DIRECTORY, e.source(), dst, new Diagnostic(
                    "cannot create directory {0} (the copy is complete in {1})", List.of(dst, temp), Diagnostic.reasonOf(x)));
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
