package dev.cpx.core;

import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.OverwritePolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * What to do about an entry that may exist at the destination already, in GNU cp's order of
 * checks: directories and the source itself are refused, a dangling symlink is not written
 * through, then {@code -n}, {@code -u} and {@code -i} may keep it, then it is backed up
 * ({@code --backup}) or removed ({@code --remove-destination}, and always for what cannot be
 * overwritten in place: links and special files).
 */
final class Destinations {

    enum Action {
        /** Nothing is there (any more): create a new entry. */
        CREATE,
        /** A regular file is there: write into it, in place. */
        OVERWRITE,
        /** Keep what is there; already reported where that is a failure. */
        SKIP,
        /** {@code --resume}: what is there is already the complete copy. */
        DONE
    }

    /**
     * @param action what to do
     * @param source where to copy from (the backup, in GNU's force-and-backup-onto-itself case)
     * @param backup the backup made of the old destination, or null
     * @param replaced whether something was at the destination (overwritten, backed up or removed)
     */
    record Decision(Action action, Path source, Path backup, boolean replaced) {
    }

    private final CopyRun run;
    private final Backups backups;

    Destinations(CopyRun run) {
        this.run = run;
        this.backups = new Backups(run.options.backup(), run.options.backupSuffix());
    }

    /**
     * Prepares {@code dst} for a copy of {@code src}.
     *
     * @param replaceable whether an existing non-directory is removed rather than written into
     *     (links, special files, {@code -l}/{@code -s}); {@code linkMode} entries are removed only with {@code -f}
     */
    Decision prepare(EntryKind kind, Path src, Path dst, Stat st, boolean dstAbsent, boolean replaceable, boolean linkMode) {
        if (dstAbsent) {
            return new Decision(Action.CREATE, src, null, false);
        }
        Stat existing = lstatOrNull(dst);
        if (existing == null) {
            return new Decision(Action.CREATE, src, null, false);
        }
        if (existing.isDirectory()) {
            run.failed(kind, src, dst, Diagnostic.of("cannot overwrite directory {0} with non-directory", dst));
            return skip(src);
        }
        Stat target = existing.isSymlink() && !replaceable ? statOrNull(dst) : existing;
        if (target == null && !run.options.removeDestination()) {
            run.failed(kind, src, dst, Diagnostic.of("not writing through dangling symlink {0}", dst));
            return skip(src);
        }
        Path source = src;
        if (target != null && st.sameFile(target)) {
            boolean backupOntoItself = run.options.force() && backups.enabled() && st.isRegular()
                    && src.toAbsolutePath().normalize().equals(dst.toAbsolutePath().normalize());
            if (!backupOntoItself) {
                run.failed(kind, src, dst, Diagnostic.of("{0} and {1} are the same file", src, dst));
                return skip(src);
            }
        }
        if (run.options.resume() && isComplete(src, dst, st, existing)) {
            run.skipped(kind, src, dst, Diagnostic.of("{0} is already complete", dst));
            return new Decision(Action.DONE, src, null, false);
        }
        OverwritePolicy policy = run.options.overwrite();
        if (policy == OverwritePolicy.NO_CLOBBER) {
            run.skipped(kind, src, dst, Diagnostic.of("not overwriting {0}", dst));
            return skip(src);
        }
        if (run.options.update() && target != null && target.mtime().compareTo(st.mtime()) >= 0) {
            run.skipped(kind, src, dst, Diagnostic.of("not replacing {0}: not older than the source", dst));
            return skip(src);
        }
        if (policy == OverwritePolicy.ASK && !run.confirm(Diagnostic.of("overwrite {0}?", dst))) {
            run.skipped(kind, src, dst, Diagnostic.of("not overwriting {0}", dst));
            return skip(src);
        }
        if (backups.enabled()) {
            Path backup;
            try {
                backup = backups.nameFor(dst);
                Stat backupStat = lstatOrNull(backup);
                if (backupStat != null && backupStat.sameFile(st) && !(target != null && st.sameFile(target))) {
                    run.failed(kind, src, dst, Diagnostic.of("backing up {0} might destroy source;  {1} not copied", dst, src));
                    return skip(src);
                }
                if (!run.options.dryRun()) {
                    Files.move(dst, backup, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                }
            } catch (IOException e) {
                run.failed(kind, src, dst, Diagnostic.of("cannot backup {0}", dst, Diagnostic.reasonOf(e)));
                return skip(src);
            }
            if (target != null && st.sameFile(target) && !run.options.dryRun()) {
                source = backup;
            }
            return new Decision(Action.CREATE, source, backup, true);
        }
        boolean remove = run.options.removeDestination() || (replaceable && (!linkMode || run.options.force()));
        if (remove) {
            return remove(kind, src, dst) ? new Decision(Action.CREATE, source, null, true) : skip(src);
        }
        return new Decision(replaceable ? Action.CREATE : Action.OVERWRITE, source, null, true);
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

    private static Decision skip(Path src) {
        return new Decision(Action.SKIP, src, null, false);
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
