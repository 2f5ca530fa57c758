package dev.cpx.core;

import dev.cpx.api.CopyOptions;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.core.decide.DestinationCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Prepares the destination of each entry before it is copied: asks {@link DestinationCheck} (GNU's
 * order of checks) with the facts read from the file system, reports refusals and skips, and makes
 * the backup or removal the decision asks for.
 */
final class Destinations {

    enum Action {
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
     */
    record Decision(Action action, Path backup, boolean replaced, Stat existing) {
    }

    private final CopyRun run;
    private final Backups backups;
    /** The options the checks read: the run's, without backups after {@link #withoutBackups}. */
    private volatile CopyOptions options;
    /** What earlier operands made, for GNU's "just-created" checks. */
    private final JustCreated justCreated = new JustCreated();

    Destinations(CopyRun run) {
        this.run = run;
        this.backups = new Backups(run.options.backup(), run.options.backupSuffix());
        this.options = run.options;
    }

    /** The backup name {@code dst} would get now ({@link ForcedBackup}), or null when it cannot be told. */
    Path backupName(Path dst) {
        try {
            return backups.nameFor(dst);
        } catch (IOException e) {
            return null;
        }
    }

    /** From now on no backups are made ({@link ForcedBackup}: the copy is the backup). */
    void withoutBackups() {
        options = options.toBuilder().backup(dev.cpx.api.BackupMode.NONE).build();
    }

    /** The operands' record of what they made; see {@link JustCreated}. */
    JustCreated justCreated() {
        return justCreated;
    }

    /** {@code dst} was made (or written) for an entry placed as {@code placement}: an operand's is recorded. */
    void made(Path dst, Placement placement) {
        if (placement == Placement.OPERAND) {
            justCreated.recordMade(dst);
        }
    }

    /**
     * Prepares {@code dst} for a copy of {@code src} (whose stat as copied is {@code st}): GNU's checks
     * ({@link DestinationCheck}), then the backup or removal they ask for. Failures and skips are
     * reported here.
     */
    Decision prepare(EntryKind kind, Path src, Path dst, Stat st, Placement placement) {
        boolean operand = placement == Placement.OPERAND;
        CopyOptions options = this.options;
        boolean follows = DestinationCheck.followsLinks(options, operand);
        PathProbe probe = new PathProbe(src, dst, st, operand);
        DestinationCheck.Decision d = DestinationCheck.decide(
                new DestinationCheck.Entry(st, src, dst, operand, placement.absent()), options, !follows, probe);
        if (d instanceof DestinationCheck.Fail f) {
            run.failed(kind, src, dst, f.why());
            return SKIP;
        }
        if (d instanceof DestinationCheck.Keep k) {
            switch (k.reason()) {
                case COMPLETE -> {
                    run.skipped(kind, src, dst, Diagnostic.of("{0} is already complete", dst));
                    return new Decision(Action.DONE, null, false, k.destination());
                }
                case UP_TO_DATE -> {
                    run.skipped(kind, src, dst, Diagnostic.of("not replacing {0}: not older than the source", dst));
                    return new Decision(Action.DONE, null, false, k.destination());
                }
                case NOTHING_TO_DO -> run.skipped(kind, src, dst, Diagnostic.of("{0} and {1} are already one", src, dst));
                default -> run.skipped(kind, src, dst, Diagnostic.of("not overwriting {0}", dst));
            }
            return SKIP;
        }
        DestinationCheck.Go go = (DestinationCheck.Go) d;
        switch (go.prepare()) {
            case BACKUP -> {
                Path backup;
                try {
                    backup = backups.nameFor(dst);
                    if (!run.options.dryRun()) {
                        Files.move(dst, backup, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    }
                } catch (NoSuchFileException e) {
                    return new Decision(Action.CREATE, null, false, null);
                } catch (IOException e) {
                    run.failed(kind, src, dst, Diagnostic.of("cannot backup {0}", dst, Diagnostic.reasonOf(e)));
                    return SKIP;
                }
                return new Decision(Action.CREATE, backup, true, null);
            }
            case UNLINK -> {
                return remove(kind, src, dst) ? new Decision(Action.CREATE, null, true, null) : SKIP;
            }
            default -> {
                if (go.newDestination()) {
                    return new Decision(Action.CREATE, null, false, null);
                }
                return new Decision(Action.EXISTING, null, true, go.destination());
            }
        }
    }

    private static final Decision SKIP = new Decision(Action.SKIP, null, false, null);

    /** {@link DestinationCheck}'s questions, answered from the file system, the operands' records and the user. */
    private final class PathProbe implements DestinationCheck.Probe {
        private final Path src;
        private final Path dst;
        private final Stat st;
        private final boolean operand;

        PathProbe(Path src, Path dst, Stat st, boolean operand) {
            this.src = src;
            this.dst = dst;
            this.st = st;
            this.operand = operand;
        }

        @Override
        public DestinationCheck.Looked destination(boolean followLinks) {
            try {
                return DestinationCheck.Looked.of(Stat.of(dst, followLinks));
            } catch (IOException e) {
                String reason = Diagnostic.reasonOf(e);
                DestinationCheck.Errno errno = e instanceof NoSuchFileException || reason.equals("No such file or directory")
                        ? DestinationCheck.Errno.ENOENT
                        : reason.equals("Too many levels of symbolic links") ? DestinationCheck.Errno.ELOOP
                        : DestinationCheck.Errno.OTHER;
                return DestinationCheck.Looked.failed(errno, reason);
            }
        }

        @Override
        public boolean justCreated(Stat destination) {
            return operand && justCreated.made(dst, destination);
        }

        @Override
        public boolean sourceIsDestinationBackup() {
            return backups.isSimpleBackupOf(src, st, dst);
        }

        @Override
        public boolean writable() {
            return Files.isWritable(dst);
        }

        @Override
        public boolean confirm(Diagnostic question) {
            return run.confirm(question);
        }

        @Override
        public boolean complete(Stat destination) {
            return isComplete(src, dst, st, destination);
        }

        @Override
        public Stat sourceLstat() {
            return lstatOrNull(src);
        }

        @Override
        public Stat destinationLstat() {
            return lstatOrNull(dst);
        }

        @Override
        public Stat sourceFollowed() {
            return statOrNull(src);
        }

        @Override
        public Stat destinationFollowed() {
            return statOrNull(dst);
        }

        @Override
        public boolean sameName() {
            return JustCreated.sameName(src, dst);
        }
    }

    /**
     * {@code --resume}: a destination file with the source's size and modification time is complete
     * (without preserved times, one at least as new as the source); a link with the same target text,
     * a special file of the same kind and device, too. A file cpx creates only gets its
     * final name once complete, so only a file overwritten in place can be partial, and then its
     * size or time differs.
     */
    private boolean isComplete(Path src, Path dst, Stat st, Stat existing) {
        if (st.isSymlink() && existing.isSymlink()) {
            try {
                return Files.readSymbolicLink(src).equals(Files.readSymbolicLink(dst)) && attributesApplied(st, existing);
            } catch (IOException e) {
                return false;
            }
        }
        if (st.isSpecial()) {
            return existing.type() == st.type() && existing.rdev() == st.rdev() && attributesApplied(st, existing);
        }
        if (!st.isRegular() || !existing.isRegular() || existing.size() != st.size()) {
            return false;
        }
        int c = existing.mtime().compareTo(st.mtime());
        return run.options.preserves(dev.cpx.api.Attribute.TIMESTAMPS) ? c == 0 : c >= 0;
    }

    /**
     * Whether a link or special file, made at once under its name, also got the attributes that
     * are preserved: a copy killed in between leaves it with the time of its making.
     */
    private boolean attributesApplied(Stat st, Stat existing) {
        if (run.options.preserves(dev.cpx.api.Attribute.TIMESTAMPS) && !existing.mtime().equals(st.mtime())) {
            return false;
        }
        if (run.options.preserves(dev.cpx.api.Attribute.MODE) && !st.isSymlink()
                && (existing.mode() & 07777) != (st.mode() & 07777)) {
            return false;
        }
        return true;
    }

    /** Removes {@code dst} (telling the listener, for {@code -v}); false when that failed (reported). */
    boolean remove(EntryKind kind, Path src, Path dst) {
        if (run.options.dryRun()) {
            return true;
        }
        try {
            Files.delete(dst);
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            run.failed(kind, src, dst, Diagnostic.of("cannot remove {0}", dst, Diagnostic.reasonOf(e)));
            return false;
        }
        run.listener.removed(dst);
        return true;
    }

    static Stat lstatOrNull(Path p) {
        try {
            return Stat.lstat(p);
        } catch (IOException e) {
            return null;
        }
    }

    static Stat statOrNull(Path p) {
        try {
            return Stat.stat(p);
        } catch (IOException e) {
            return null;
        }
    }
}
