package dev.cpx.core.copy;

import dev.cpx.api.BackupMode;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.OverwritePolicy;
import dev.cpx.api.EntryKind;
import dev.cpx.core.decide.Backups;
import dev.cpx.core.decide.DestinationCheck;
import dev.cpx.core.decide.Entry;
import dev.cpx.core.decide.JustCreated;
import dev.cpx.spi.FileStatus;
import dev.cpx.core.decide.Placement;
import dev.cpx.core.decide.ResumeRule;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.run.RunContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Prepares the destination of each entry before it is copied: asks {@link DestinationCheck} (GNU's
 * order of checks) with the facts read from the file system, reports refusals and skips, and makes
 * the backup or removal the decision asks for.
 */
public final class Destinations {

    /** What the entry's maker does next. */
    public enum Action {
        /** Nothing is there (any more): create a new entry. */
        CREATE,
        /**
         * Something is there and stays until the copy is made: a regular file (or FIFO, device) is
         * written into in place; a link or special file being made must replace it or fail.
         */
        EXISTING,
        /** Keep what is there; already reported where that is a failure. */
        SKIP,
        /** What is there counts as the copy ({@code --resume}: complete; {@code -u}: up to date). */
        DONE
    }

    /**
     * @param action what to do
     * @param backup the backup made of the old destination, or null
     * @param replaced whether something was at the destination (overwritten, backed up or removed)
     * @param existing the destination's stat when the action is {@link Action#EXISTING} (null when it could
     *     not be looked at: a looping symlink with {@code -f}, removed when opening it fails)
     * @param createAt where a new entry is made: the destination, or where the dangling symlink there points
     *     ({@code POSIXLY_CORRECT})
     * @param refusal why the new entry cannot be made, found as GNU finds it only when making it (after
     *     opening the source): the maker reports it then; null when it can be made
     */
    public record Decision(Action action, Path backup, boolean replaced, Stat existing, Path createAt, Diagnostic refusal) {
        Decision(Action action, Path backup, boolean replaced, Stat existing) {
            this(action, backup, replaced, existing, null, null);
        }
    }

    private static final Decision SKIP = new Decision(Action.SKIP, null, false, null);
    /** A new destination, made where it is named: the decision of nearly every file, made once. */
    private static final Decision CREATE = new Decision(Action.CREATE, null, false, null);

    private final RunContext context;
    private final Backups backups;
    /** What earlier operands made, for GNU's "just-created" checks. */
    private final JustCreated justCreated;
    /** The options the checks read: the run's, without backups after {@link #withoutBackups}. */
    private volatile CopyOptions options;

    public Destinations(RunContext context, JustCreated justCreated) {
        this.context = context;
        this.backups = new Backups(context.options().backup(), context.options().backupSuffix());
        this.justCreated = justCreated;
        this.options = context.options();
    }

    /** The backup name {@code dst} would get now ({@link dev.cpx.core.decide.ForcedBackup}), or null when it cannot be told. */
    public Path backupName(Path dst) {
        try {
            return backups.nameFor(dst);
        } catch (IOException e) {
            return null;
        }
    }

    /** From now on no backups are made ({@link dev.cpx.core.decide.ForcedBackup}: the copy is the backup). */
    public void withoutBackups() {
        options = options.toBuilder().backup(BackupMode.NONE).build();
    }

    /** {@code e}'s destination was made (or written): an operand's is recorded. */
    void made(Entry e) {
        if (e.operand()) {
            justCreated.recordMade(e.target());
        }
    }

    /** Whether {@link #made(Entry, FileStatus)} wants the made file's status: {@code e} is an operand recorded. */
    boolean recordsMade(Entry e) {
        return e.operand() && justCreated.enabled();
    }

    /** {@link #made(Entry)}, the file made being {@code made} (its status through its descriptor; null: look it up by name). */
    void made(Entry e, FileStatus made) {
        if (made == null) {
            made(e);
        } else if (e.operand()) {
            justCreated.recordMade(e.target(), made.dev(), made.ino());
        }
    }

    /**
     * Prepares {@code e}'s destination: GNU's checks ({@link DestinationCheck}), then the backup or
     * removal they ask for. Failures and skips are reported here.
     */
    public Decision prepare(Entry e) {
        return prepare(e, null);
    }

    /**
     * {@link #prepare(Entry)}, the destination looked at by its name in {@code place}'s open copy
     * (null: by its path).
     */
    Decision prepare(Entry e, Place place) {
        Decision d = decide(e, place);
        if (d.action() != Action.SKIP && d.action() != Action.DONE && !e.stat().isDirectory()) {
            context.outcomes().starting(e.kind(), e.source(), e.target(), d.backup());
        }
        return d;
    }

    /**
     * Whether GNU's checks of {@code e}'s destination refuse it (a non-directory in the way of a
     * directory, the same file), reported as {@link #prepare} reports it; false, with nothing done or
     * told, for any other decision. For an entry refused anyway, whose checks GNU cp makes first.
     */
    boolean refused(Entry e) {
        if (rules(e, this.options, null) instanceof DestinationCheck.Fail f && !f.whileMaking()) {
            context.outcomes().failed(e.kind(), e.source(), e.target(), f.why());
            return true;
        }
        return false;
    }

    /**
     * {@code -u}: whether {@code e}'s destination is kept, not being older than the source, reported as
     * {@link #prepare} reports it; false, with nothing done or told, for any other decision (made again
     * once the source is open). Not with {@code -i}, whose question the rules may come to; the rules
     * are otherwise a pure function of what the probe reads.
     */
    boolean keptAsUpToDate(Entry e, Place place) {
        CopyOptions options = this.options;
        if (!options.update() || options.overwrite() == OverwritePolicy.ASK) {
            return false;
        }
        if (rules(e, options, place) instanceof DestinationCheck.Keep k && k.reason() == DestinationCheck.KeepReason.UP_TO_DATE) {
            notOlder(e);
            return true;
        }
        return false;
    }

    private void notOlder(Entry e) {
        context.outcomes().skipped(e.kind(), e.source(), e.target(),
                Diagnostic.of("not replacing {0}: not older than the source", e.target()));
    }

    /** GNU's checks of {@code e}'s destination ({@link DestinationCheck}), looked at in {@code place} (null: by path). */
    private DestinationCheck.Decision rules(Entry e, CopyOptions options, Place place) {
        boolean follows = DestinationCheck.followsLinks(options, e.operand());
        return DestinationCheck.decide(e, options, !follows, new PathProbe(e, place));
    }

    private Decision decide(Entry e, Place place) {
        CopyOptions options = this.options;
        EntryKind kind = e.kind();
        DestinationCheck.Decision d = rules(e, options, place);
        if (d instanceof DestinationCheck.Fail f) {
            if (f.whileMaking()) {
                return new Decision(Action.CREATE, null, false, null, null, f.why());
            }
            context.outcomes().failed(kind, e.source(), e.target(), f.why());
            return SKIP;
        }
        if (d instanceof DestinationCheck.Keep k) {
            Path dst = e.target();
            switch (k.reason()) {
                case COMPLETE -> {
                    context.outcomes().skipped(kind, e.source(), dst, Diagnostic.of("{0} is already complete", dst));
                    return new Decision(Action.DONE, null, false, k.destination());
                }
                case UP_TO_DATE -> {
                    notOlder(e);
                    return new Decision(Action.DONE, null, false, k.destination());
                }
                case NOTHING_TO_DO -> context.outcomes().skipped(kind, e.source(), dst,
                        Diagnostic.of("{0} and {1} are already one", e.source(), dst));
                default -> context.outcomes().skipped(kind, e.source(), dst, Diagnostic.of("not overwriting {0}", dst));
            }
            return SKIP;
        }
        DestinationCheck.Go go = (DestinationCheck.Go) d;
        switch (go.prepare()) {
            case BACKUP -> {
                Path backup;
                try {
                    backup = backups.nameFor(e.target());
                    context.effects().rename(e.target(), backup);
                } catch (NoSuchFileException x) {
                    return new Decision(Action.CREATE, null, false, null);
                } catch (IOException x) {
                    context.outcomes().failed(kind, e.source(), e.target(),
                            Diagnostic.of("cannot backup {0}", e.target(), Diagnostic.reasonOf(x)));
                    return SKIP;
                }
                return new Decision(Action.CREATE, backup, true, null);
            }
            case UNLINK -> {
                return remove(kind, e.source(), e.target()) ? new Decision(Action.CREATE, null, true, null) : SKIP;
            }
            default -> {
                if (go.throughDanglingSymlink()) {
                    try {
                        Path link = e.target();
                        Path dir = link.toAbsolutePath().getParent();
                        return new Decision(Action.CREATE, null, false, null, dir.resolve(context.anchors().readSymbolicLink(link)), null);
                    } catch (IOException x) {
                        context.outcomes().failed(kind, e.source(), e.target(),
                                Diagnostic.of("cannot create regular file {0}", e.target(), Diagnostic.reasonOf(x)));
                        return SKIP;
                    }
                }
                if (go.newDestination()) {
                    return CREATE;
                }
                return new Decision(Action.EXISTING, null, true, go.destination());
            }
        }
    }

    /**
     * The copy of {@code e} failed after its destination was backed up to {@code backup}: the backup
     * gets its name back, as GNU cp does ({@code un_backup}), unless something took the name since
     * (GNU's rename would replace it; then the backup stays, reported). Nothing when there is no backup.
     */
    void unBackup(Entry e, Path backup) {
        if (backup == null) {
            return;
        }
        try {
            // Without replacing: were the name taken meanwhile (another user's new file), that stays.
            context.effects().renameNoReplace(backup, e.target());
        } catch (IOException x) {
            context.outcomes().failed(e.kind(), e.source(), e.target(),
                    Diagnostic.of("cannot un-backup {0}", e.target(), Diagnostic.reasonOf(x)));
        }
    }

    /** Removes {@code dst} (telling the listener, for {@code -v}); false when that failed (reported). */
    boolean remove(EntryKind kind, Path src, Path dst) {
        try {
            if (!context.effects().remove(dst)) {
                return true;
            }
        } catch (IOException e) {
            context.outcomes().failed(kind, src, dst, Diagnostic.of("cannot remove {0}", dst, Diagnostic.reasonOf(e)));
            return false;
        }
        context.outcomes().removed(dst);
        return true;
    }

    /** {@link DestinationCheck}'s questions, answered from the file system, the operands' records and the user. */
    private final class PathProbe implements DestinationCheck.Probe {
        private final Entry e;
        /** Where the destination is looked at relative to its open directory; null: by its path. */
        private final Place place;

        /**
         * The destination's {@code lstat} once looked at ({@link #lstatDone}; null: nothing there): the
         * rules look again at what the first look saw (the just-created symlink and dangling link
         * checks), and nothing changes the destination between the looks of one decision.
         */
        private Stat lstat;
        private boolean lstatDone;

        PathProbe(Entry e, Place place) {
            this.e = e;
            this.place = place;
        }

        private Stat lstatIfThere() throws IOException {
            if (!lstatDone) {
                lstat = place == null
                        ? context.anchors().lstatIfThere(e.target())
                        : Stat.ifThere(place.directories().descriptors(), place.directories().target(), place.name());
                lstatDone = true;
            }
            return lstat;
        }

        @Override
        public DestinationCheck.Looked destination(boolean followLinks) {
            try {
                // The common answer, "nothing there", without an exception; what is there is followed
                // only where it is a symbolic link (for anything else stat and lstat agree).
                Stat there = lstatIfThere();
                if (there == null) {
                    return DestinationCheck.Looked.failed(DestinationCheck.Errno.ENOENT, "No such file or directory");
                }
                return DestinationCheck.Looked.of(followLinks && there.isSymlink()
                        ? context.anchors().stat(e.target(), true) : there);
            } catch (IOException x) {
                String reason = Diagnostic.reasonOf(x);
                DestinationCheck.Errno errno = x instanceof NoSuchFileException || reason.equals("No such file or directory")
                        ? DestinationCheck.Errno.ENOENT
                        : reason.equals("Too many levels of symbolic links") ? DestinationCheck.Errno.ELOOP
                        : DestinationCheck.Errno.OTHER;
                return DestinationCheck.Looked.failed(errno, reason);
            }
        }

        @Override
        public boolean justCreated(Stat destination) {
            return e.operand() && justCreated.made(e.target(), destination);
        }

        @Override
        public boolean sourceIsDestinationBackup() {
            return backups.isSimpleBackupOf(e.source(), e.stat(), e.target());
        }

        @Override
        public boolean writable() {
            try {
                return context.anchors().at(e.target(), Files::isWritable);
            } catch (IOException x) {
                return false;
            }
        }

        @Override
        public boolean confirm(Diagnostic question) {
            return context.outcomes().confirm(question);
        }

        @Override
        public boolean complete(Stat destination) {
            return ResumeRule.complete(e.stat(), destination, options, () -> {
                try {
                    return context.anchors().readSymbolicLink(e.source()).equals(context.anchors().readSymbolicLink(e.target()));
                } catch (IOException x) {
                    return false;
                }
            });
        }

        @Override
        public Stat sourceLstat() {
            return context.anchors().lstatOrNull(e.source());
        }

        @Override
        public Stat destinationLstat() {
            return context.anchors().lstatOrNull(e.target());
        }

        @Override
        public Stat sourceFollowed() {
            return context.anchors().statOrNull(e.source());
        }

        @Override
        public Stat destinationFollowed() {
            return context.anchors().statOrNull(e.target());
        }

        @Override
        public boolean sameName() {
            return JustCreated.sameName(e.source(), e.target());
        }
    }
}
