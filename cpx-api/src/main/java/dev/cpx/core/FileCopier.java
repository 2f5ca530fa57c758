package dev.cpx.core;

import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.OverwritePolicy;
import dev.cpx.api.ReflinkMode;
import dev.cpx.spi.CloneResult;
import dev.cpx.spi.CopyProgress;
import dev.cpx.spi.CopyRequest;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Copies one non-directory entry. A new regular file is written as a {@link NewFile} (unnamed, or
 * under a temporary name) and given its final name only when its data and attributes are complete,
 * so no half-written file is ever visible under its final name. An existing destination file is
 * overwritten in place, as GNU cp does (same inode, hard links to it see the new data).
 */
final class FileCopier {

    private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ);
    private static final Set<OpenOption> OVERWRITE = Set.of(StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);

    /** Files at least this large are written under a name (.NAME.cpx-part), so --resume can continue them. */
    static final long RESUMABLE_SIZE = 64L << 20;

    private final CopyRun run;
    /** Counts the bytes of a file that is finished even when the run is cancelled (an overwrite in place). */
    private final CopyProgress finishing;
    /** Source devices where cloning failed once (e.g. ext4): not tried again with {@code --reflink=auto}. */
    private final Set<Long> noClone = ConcurrentHashMap.newKeySet();

    FileCopier(CopyRun run) {
        this.run = run;
        this.finishing = bytes -> run.counters.bytesDone.add(bytes);
    }

    /** Copies a regular file (or reads a special file as data); names it in {@code order}'s turn. */
    void copyFile(InsertionOrder order, int index, Path src, Path dst, Stat st, boolean dstAbsent) {
        boolean[] named = {false};
        InsertionOrder once = new InsertionOrder() {
            @Override
            public void insert(int i, Runnable naming, boolean holdsDescriptor) {
                named[0] = true;
                order.insert(i, naming, holdsDescriptor);
            }

            @Override
            public void skip(int i) {
                named[0] = true;
                order.skip(i);
            }
        };
        try {
            if (run.cancelled()) {
                return;
            }
            Stat existing = dstAbsent ? null : lstatOrNull(dst);
            if (existing == null) {
                createNew(once, index, src, dst, st);
            } else {
                once.skip(index);
                if (mayOverwrite(EntryKind.FILE, src, dst, st, existing)) {
                    overwrite(src, dst, st);
                }
            }
        } finally {
            if (!named[0]) {
                order.skip(index);
            }
            run.counters.filesDone.increment();
        }
    }

    private void createNew(InsertionOrder order, int index, Path src, Path dst, Stat st) {
        NewFile file;
        long bytes;
        try (FileChannel in = openSource(src)) {
            if (in == null) {
                order.skip(index);
                return;
            }
            try {
                file = NewFile.create(run, dst, st.permissions(), st.size() >= RESUMABLE_SIZE);
            } catch (IOException e) {
                order.skip(index);
                run.failed(EntryKind.FILE, src, dst, Diagnostic.of("cannot create regular file {0}", dst, Errors.reason(e)));
                return;
            }
            bytes = transfer(in, file.channel(), src, dst, st, run.byteProgress);
        } catch (IOException e) {
            // Closing the source failed; the copy itself was reported by transfer.
            bytes = -1;
            file = null;
        }
        if (bytes < 0) {
            if (file != null) {
                file.abandon(run.cancelled());
            }
            order.skip(index);
            return;
        }
        run.metadata.apply(src, file.attributesPath(), st, false);
        try {
            file.finishWriting();
        } catch (IOException e) {
            file.abandon(false);
            order.skip(index);
            run.failed(EntryKind.FILE, src, dst, Diagnostic.of("error writing {0}", dst, Errors.reason(e)));
            return;
        }
        NewFile complete = file;
        long copied = bytes;
        order.insert(index, () -> publish(complete, src, dst, copied), !complete.isNamed());
    }

    private void publish(NewFile file, Path src, Path dst, long bytes) {
        try {
            file.publish(dst);
        } catch (IOException e) {
            file.abandon(false);
            run.failed(EntryKind.FILE, src, dst, Diagnostic.of("cannot create regular file {0}", dst, Errors.reason(e)));
            return;
        }
        run.copied(EntryKind.FILE, src, dst, bytes);
    }

    private void overwrite(Path src, Path dst, Stat st) {
        long bytes;
        try (FileChannel in = openSource(src)) {
            if (in == null) {
                return;
            }
            FileChannel out;
            try {
                out = FileChannel.open(dst, OVERWRITE);
            } catch (IOException e) {
                if (!run.options.force()) {
                    run.failed(EntryKind.FILE, src, dst, Diagnostic.of("cannot create regular file {0}", dst, Errors.reason(e)));
                    return;
                }
                // -f: remove what cannot be opened and make a new file in its place.
                try {
                    Files.delete(dst);
                } catch (IOException removeError) {
                    run.failed(EntryKind.FILE, src, dst, Diagnostic.of("cannot remove {0}", dst, Errors.reason(removeError)));
                    return;
                }
                in.close();
                createNew(InsertionOrder.IMMEDIATE, 0, src, dst, st);
                return;
            }
            try (out) {
                // Truncated already: a cancel would leave it half-written under its name, so it is finished.
                bytes = transfer(in, out, src, dst, st, finishing);
            }
        } catch (IOException e) {
            run.failed(EntryKind.FILE, src, dst, Diagnostic.of("error writing {0}", dst, Errors.reason(e)));
            return;
        }
        if (bytes < 0) {
            return;
        }
        run.metadata.apply(src, dst, st, false);
        run.copied(EntryKind.FILE, src, dst, bytes);
    }

    private FileChannel openSource(Path src) {
        try {
            return FileChannel.open(src, READ);
        } catch (IOException e) {
            run.failed(EntryKind.FILE, src, null, Diagnostic.of("cannot open {0} for reading", src, Errors.reason(e)));
            return null;
        }
    }

    /**
     * Moves the data with the engine (a clone first when {@code --reflink} allows), telling
     * {@code total} every byte: the run's progress stops the copy when the run is cancelled,
     * {@link #finishing} never does. Returns the bytes copied, or -1 after reporting a failure.
     */
    private long transfer(FileChannel in, FileChannel out, Path src, Path dst, Stat st, CopyProgress total) {
        try (Transfers.Transfer progress = run.transfers.begin(src, dst, st.size(), total)) {
            ReflinkMode reflink = run.options.reflink();
            if (reflink != ReflinkMode.NEVER && st.isRegular()) {
                if (reflink == ReflinkMode.ALWAYS || !noClone.contains(st.dev())) {
                    CloneResult clone = run.engine.cloneFile(in, out);
                    if (clone.cloned()) {
                        run.counters.bytesDone.add(st.size());
                        return st.size();
                    }
                    if (reflink == ReflinkMode.ALWAYS) {
                        run.failed(EntryKind.FILE, src, dst, Diagnostic.of("failed to clone {0} from {1}", dst, src)
                                .withReason(clone.reason()));
                        return -1;
                    }
                    noClone.add(st.dev());
                }
            }
            return run.engine.copy(CopyRequest.wholeFile(in, out, st.size(), run.options.sparse(), progress));
        } catch (InterruptedIOException e) {
            run.skipped(EntryKind.FILE, src, dst, Diagnostic.of("interrupted while copying {0}", src));
            return -1;
        } catch (IOException e) {
            Diagnostic why = Errors.isWriteSide(e)
                    ? Diagnostic.of("error writing {0}", dst, Errors.reason(e))
                    : Diagnostic.of("error reading {0}", src, Errors.reason(e));
            run.failed(EntryKind.FILE, src, dst, why);
            return -1;
        }
    }

    /** Copies a symbolic link as a link with the same target text. */
    void copySymlink(Path src, Path dst, Stat st, boolean dstAbsent) {
        if (run.cancelled()) {
            return;
        }
        Path target;
        try {
            target = Files.readSymbolicLink(src);
        } catch (IOException e) {
            run.failed(EntryKind.SYMLINK, src, dst, Diagnostic.of("cannot read symbolic link {0}", src, Errors.reason(e)));
            return;
        }
        if (!dstAbsent && !replaceNonDirectory(EntryKind.SYMLINK, src, dst, st)) {
            return;
        }
        try {
            Files.createSymbolicLink(dst, target);
        } catch (IOException e) {
            run.failed(EntryKind.SYMLINK, src, dst, Diagnostic.of("cannot create symbolic link {0}", dst, Errors.reason(e)));
            return;
        }
        run.metadata.apply(src, dst, st, true);
        run.copied(EntryKind.SYMLINK, src, dst, 0);
    }

    /** Recreates a FIFO, socket or device node; never opens it. */
    void copySpecial(Path src, Path dst, Stat st, boolean dstAbsent) {
        if (run.cancelled()) {
            return;
        }
        String what = st.type() == Stat.S_IFIFO ? "cannot create fifo {0}" : "cannot create special file {0}";
        if (run.extras == null) {
            run.failed(EntryKind.SPECIAL, src, dst, Diagnostic.of(what, dst, "Operation not supported (no native support loaded)"));
            return;
        }
        if (!dstAbsent && !replaceNonDirectory(EntryKind.SPECIAL, src, dst, st)) {
            return;
        }
        try {
            run.extras.makeNode(dst, st.mode(), st.rdev());
        } catch (IOException e) {
            run.failed(EntryKind.SPECIAL, src, dst, Diagnostic.of(what, dst, Errors.reason(e)));
            return;
        }
        run.metadata.apply(src, dst, st, false);
        run.copied(EntryKind.SPECIAL, src, dst, 0);
    }

    /**
     * Before making a link or node where something may exist: refuses directories and the source
     * itself, applies the overwrite policy, and removes the old entry. Returns false when the entry
     * is not to be copied (already reported).
     */
    private boolean replaceNonDirectory(EntryKind kind, Path src, Path dst, Stat st) {
        Stat existing = lstatOrNull(dst);
        if (existing == null) {
            return true;
        }
        if (!mayOverwrite(kind, src, dst, st, existing)) {
            return false;
        }
        try {
            Files.delete(dst);
            return true;
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            run.failed(kind, src, dst, Diagnostic.of("cannot remove {0}", dst, Errors.reason(e)));
            return false;
        }
    }

    /** The checks and policies before replacing an existing destination; false when it must be kept (reported). */
    private boolean mayOverwrite(EntryKind kind, Path src, Path dst, Stat st, Stat existing) {
        if (existing.isDirectory()) {
            run.failed(kind, src, dst, Diagnostic.of("cannot overwrite directory {0} with non-directory", dst));
            return false;
        }
        if (st.sameFile(existing) || (existing.isSymlink() && kind == EntryKind.FILE && st.sameFile(statOrNull(dst)))) {
            run.failed(kind, src, dst, Diagnostic.of("{0} and {1} are the same file", src, dst));
            return false;
        }
        OverwritePolicy policy = run.options.overwrite();
        if (policy == OverwritePolicy.NO_CLOBBER) {
            run.skipped(kind, src, dst, Diagnostic.of("not overwriting {0}", dst));
            return false;
        }
        if (run.options.update() && existing.mtime().compareTo(st.mtime()) >= 0) {
            run.skipped(kind, src, dst, Diagnostic.of("not replacing {0}: not older than the source", dst));
            return false;
        }
        if (policy == OverwritePolicy.ASK && !run.confirm(Diagnostic.of("overwrite {0}?", dst))) {
            run.skipped(kind, src, dst, Diagnostic.of("not overwriting {0}", dst));
            return false;
        }
        return true;
    }

    private Stat lstatOrNull(Path p) {
        try {
            return Stat.lstat(p);
        } catch (IOException e) {
            return null;
        }
    }

    private static Stat statOrNull(Path p) {
        try {
            return Stat.stat(p);
        } catch (IOException e) {
            return null;
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // best effort: the partial file keeps its temporary name either way
        }
    }
}
