package dev.cpx.core;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyMode;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.ReflinkMode;
import dev.cpx.spi.CloneResult;
import dev.cpx.spi.CopyProgress;
import dev.cpx.spi.CopyRequest;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Copies the data of one regular file (or, without {@code -r}, of a special file read as data). A
 * new file is written as a {@link NewFile} (unnamed, or under a temporary name) and given its final
 * name only when its data and attributes are complete, so no half-written file is ever visible under
 * its final name. An existing destination file is overwritten in place, as GNU cp does (same inode,
 * hard links to it see the new data), unless a backup or {@code --remove-destination} asks for a new one.
 */
final class FileCopier {

    /** Files at least this large are written under a name (.NAME.cpx-part), so --resume can continue them. */
    static final long RESUMABLE_SIZE = 64L << 20;

    /** Files smaller than this are not checked for holes. */
    static final long HOLE_CHECK_SIZE = 32L << 10;

    private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ);
    private static final Set<OpenOption> OVERWRITE = Set.of(StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    private static final Set<OpenOption> ATTRIBUTES_ONLY = Set.of(StandardOpenOption.WRITE);

    private final CopyRun run;
    /** Counts the bytes of a file that is finished even when the run is cancelled (an overwrite in place). */
    private final CopyProgress finishing;
    /** Source devices where cloning failed once (e.g. ext4): not tried again with {@code --reflink=auto}. */
    private final Set<Long> noClone = ConcurrentHashMap.newKeySet();

    FileCopier(CopyRun run) {
        this.run = run;
        this.finishing = bytes -> run.counters.bytesDone.add(bytes);
    }

    /**
     * Copies {@code src} to {@code dst} and names it in {@code order}'s turn at {@code index}.
     *
     * @param links the hard-link group this file is the first copy of, or null; such a file is named
     *     at once ({@code order} is {@link InsertionOrder#IMMEDIATE}), so the group learns its fate here
     */
    void copyFile(InsertionOrder order, int index, Path src, Path dst, Stat st, Placement placement, HardLinks.Group links) {
        Path[] published = {null};
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
            Destinations.Decision d = run.destinations.prepare(EntryKind.FILE, src, dst, st, placement);
            if (d.action() == Destinations.Action.DONE) {
                // Counts as the copy for later names of the same inode, but was not made now.
                once.skip(index);
                published[0] = dst;
                return;
            }
            if (d.action() != Destinations.Action.SKIP && run.options.dryRun()) {
                // --dry-run: say what would be done, touch nothing.
                once.skip(index);
                published[0] = dst;
                run.copied(EntryKind.FILE, src, dst, st.size(), d.backup(), d.replaced());
                return;
            }
            switch (d.action()) {
                case SKIP -> once.skip(index);
                case EXISTING -> {
                    once.skip(index);
                    if (overwrite(src, dst, st, d.existing())) {
                        published[0] = dst;
                        run.destinations.made(dst, placement);
                    }
                }
                case CREATE -> createNew(once, index, src, dst, st, d.backup(), d.replaced(), p -> {
                    published[0] = p;
                    run.destinations.made(p, placement);
                });
                default -> throw new IllegalStateException(d.action().toString());
            }
        } finally {
            if (!named[0]) {
                order.skip(index);
            }
            if (links != null) {
                links.finish(published[0]);
            }
            run.counters.filesDone.increment();
        }
    }

    private void createNew(InsertionOrder order, int index, Path src, Path dst, Stat st, Path backup, boolean replaced,
            java.util.function.Consumer<Path> onPublished) {
        boolean attributesOnly = run.options.mode() == CopyMode.ATTRIBUTES_ONLY;
        NewFile file = null;
        long bytes = -1;
        try (FileChannel in = attributesOnly ? null : openSource(src, dst)) {
            if (in != null || attributesOnly) {
                boolean resumable = st.size() >= RESUMABLE_SIZE && !attributesOnly;
                try {
                    file = resumable && run.options.resume() ? NewFile.continuing(dst, in) : null;
                    if (file == null) {
                        file = NewFile.create(run, dst, run.creationMode(st) | extraPermissions(st), resumable);
                    }
                    bytes = attributesOnly ? 0 : transfer(in, file.channel(), src, dst, st, file.resumedAt(), run.byteProgress, false);
                    if (bytes >= 0 && !finishData(in, file.channel(), true, src, dst, bytes)) {
                        bytes = -1;
                    }
                } catch (IOException e) {
                    run.failed(EntryKind.FILE, src, dst, Diagnostic.of("cannot create regular file {0}", dst, Diagnostic.reasonOf(e)));
                    bytes = -1;
                } catch (RuntimeException | Error e) {
                    // A bug (in an engine, say): give the file up cleanly, then let the task report it.
                    if (file != null) {
                        file.abandon(false);
                    }
                    order.skip(index);
                    throw e;
                }
            }
        } catch (IOException e) {
            // Closing the source failed after the copy: the copy itself stands.
        }
        if (bytes < 0) {
            if (file != null) {
                file.abandon(run.cancelled());
            }
            order.skip(index);
            return;
        }
        run.metadata.apply(src, file.attributesPath(), dst, st, false, true);
        if (extraPermissions(st) != 0 && !run.options.preserves(Attribute.MODE)) {
            // The owner-write bit added so the xattrs could be set comes off again.
            run.metadata.chmod(src, file.attributesPath(), run.creationMode(st) & 0777 & ~Umask.get());
        }
        try {
            file.finishWriting();
        } catch (IOException e) {
            file.abandon(false);
            order.skip(index);
            run.failed(EntryKind.FILE, src, dst, Diagnostic.of("error writing {0}", dst, Diagnostic.reasonOf(e)));
            return;
        }
        NewFile complete = file;
        long copied = bytes;
        order.insert(index, () -> {
            try {
                complete.publish(dst);
            } catch (IOException e) {
                complete.abandon(false);
                run.failed(EntryKind.FILE, src, dst, Diagnostic.of("cannot create regular file {0}", dst, Diagnostic.reasonOf(e)));
                return;
            }
            onPublished.accept(dst);
            run.copied(EntryKind.FILE, src, dst, copied, backup, replaced);
        }, !complete.isNamed());
    }

    /**
     * Permission bits a new file gets while it is written beyond its own: owner-write, where an
     * unprivileged user sets extended attributes on a read-only copy (the kernel asks for write
     * permission to set {@code user.*} attributes), as GNU cp does.
     */
    private int extraPermissions(Stat st) {
        return run.xattrs.all() && !Umask.privileged() ? ~run.creationMode(st) & 0200 : 0;
    }

    /**
     * After the data: {@code --verify} reads both back and compares them, {@code --fsync} makes the
     * data durable. {@code out} is the channel the data went through; when it is write-only the copy
     * is opened again at {@code dst} to be read back. False after reporting a failure.
     */
    private boolean finishData(FileChannel in, FileChannel out, boolean outReadable, Path src, Path dst, long bytes) {
        try {
            if (run.options.verify() && in != null) {
                boolean same;
                if (outReadable) {
                    same = Verifier.sameContent(in, out, bytes);
                } else {
                    try (FileChannel back = FileChannel.open(dst, READ)) {
                        same = Verifier.sameContent(in, back, bytes);
                    }
                }
                if (!same) {
                    run.failed(EntryKind.FILE, src, dst, Diagnostic.of("verification failed: {0} differs from {1}", dst, src));
                    return false;
                }
            }
            if (run.options.fsync()) {
                out.force(true);
            }
            return true;
        } catch (IOException e) {
            run.failed(EntryKind.FILE, src, dst, Diagnostic.of("error reading {0}", dst, Diagnostic.reasonOf(e)));
            return false;
        }
    }

    /**
     * Writes into the existing {@code dst} in place, opened for writing only as GNU cp opens it: a
     * regular file (same inode, hard links see the new data), or a FIFO, terminal or device, which is
     * written in sequence. {@code existing} is its stat (null when it could not be looked at: opening
     * it then fails, and {@code -f} replaces it). True when done (else reported).
     */
    private boolean overwrite(Path src, Path dst, Stat st, Stat existing) {
        boolean attributesOnly = run.options.mode() == CopyMode.ATTRIBUTES_ONLY;
        boolean seekable = existing == null || existing.isRegular();
        long bytes;
        try (FileChannel in = attributesOnly ? null : openSource(src, dst)) {
            if (in == null && !attributesOnly) {
                return false;
            }
            FileChannel out;
            try {
                out = FileChannel.open(dst, attributesOnly ? ATTRIBUTES_ONLY : OVERWRITE);
            } catch (IOException e) {
                if (!run.options.force() || e instanceof java.nio.file.NoSuchFileException) {
                    run.failed(EntryKind.FILE, src, dst, Diagnostic.of("cannot create regular file {0}", dst, Diagnostic.reasonOf(e)));
                    return false;
                }
                // -f: remove what cannot be opened and make a new file in its place.
                if (!run.destinations.remove(EntryKind.FILE, src, dst)) {
                    return false;
                }
                boolean[] done = {false};
                createNew(InsertionOrder.IMMEDIATE, 0, src, dst, st, null, true, p -> done[0] = p != null);
                return done[0];
            }
            try (out) {
                // Truncated already: a cancel would leave it half-written under its name, so it is finished.
                if (attributesOnly) {
                    bytes = 0;
                } else {
                    bytes = transfer(in, out, src, dst, st, 0, finishing, !seekable);
                    if (bytes >= 0 && seekable && !finishData(in, out, false, src, dst, bytes)) {
                        bytes = -1;
                    }
                }
            }
        } catch (IOException e) {
            run.failed(EntryKind.FILE, src, dst, Diagnostic.of("error writing {0}", dst, Diagnostic.reasonOf(e)));
            return false;
        }
        if (bytes < 0) {
            return false;
        }
        run.metadata.apply(src, dst, dst, st, false, true);
        run.copied(EntryKind.FILE, src, dst, bytes, null, true);
        return true;
    }

    /**
     * Whether the source has holes, when the extras can tell cheaply. Files under
     * {@link #HOLE_CHECK_SIZE} are treated as dense without a system call, as a hole that small saves little.
     */
    private CopyRequest.Holes holes(FileChannel in, Stat st) {
        if (run.options.sparse() == dev.cpx.spi.SparseMode.NEVER || run.extras == null || !st.isRegular()) {
            return CopyRequest.Holes.UNKNOWN;
        }
        if (st.size() < HOLE_CHECK_SIZE) {
            return CopyRequest.Holes.NONE;
        }
        long allocated = run.extras.allocatedBytes(in);
        if (allocated < 0) {
            return CopyRequest.Holes.UNKNOWN;
        }
        return allocated < st.size() ? CopyRequest.Holes.SOME : CopyRequest.Holes.NONE;
    }

    private FileChannel openSource(Path src, Path dst) {
        try {
            return FileChannel.open(src, READ);
        } catch (IOException e) {
            run.failed(EntryKind.FILE, src, dst, Diagnostic.of("cannot open {0} for reading", src, Diagnostic.reasonOf(e)));
            return null;
        }
    }

    /**
     * Moves the data with the engine (a clone first when {@code --reflink} allows), telling
     * {@code total} every byte: the run's progress stops the copy when the run is cancelled,
     * {@link #finishing} never does. A large file is copied in ranges by several workers (see
     * {@link RangedCopy}). {@code sequential}: the destination has no offsets (a pipe, a terminal),
     * so it is written in sequence, holes as zeros. Returns the bytes copied, or -1 after reporting a failure.
     */
    private long transfer(FileChannel in, FileChannel out, Path src, Path dst, Stat st, long from, CopyProgress total,
            boolean sequential) {
        try (Transfers.Transfer progress = run.transfers.begin(src, dst, st.size(), total)) {
            if (!st.isRegular() || sequential) {
                // A FIFO or device read as data (no offsets, no size to trust: read to its end), or a
                // destination without offsets.
                return StreamCopy.copy(in, out, progress);
            }
            if (from > 0) {
                // --resume: the first bytes are there already and were checked.
                run.counters.bytesDone.add(from);
                long rest = run.engine.copy(new CopyRequest(in, out, from, CopyRequest.TO_END, st.size(),
                        run.options.sparse(), progress, holes(in, st)));
                return from + rest;
            }
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
            CopyRequest.Holes holes = holes(in, st);
            long copied = RangedCopy.worthIt(run, st.size(), holes)
                    ? RangedCopy.copy(run, in, out, st.size(), holes, progress)
                    : run.engine.copy(CopyRequest.wholeFile(in, out, st.size(), run.options.sparse(), progress, holes));
            if (copied < st.size() && st.isRegular() && in.size() >= st.size()) {
                // The source still holds more than the engine copied: never accept a silently short copy.
                run.failed(EntryKind.FILE, src, dst, Diagnostic.of("error copying {0}", src,
                        "short copy: " + copied + " of " + st.size() + " bytes"));
                return -1;
            }
            return copied;
        } catch (InterruptedIOException e) {
            run.skipped(EntryKind.FILE, src, dst, Diagnostic.of("interrupted while copying {0}", src));
            return -1;
        } catch (StreamCopy.WriteFailure e) {
            run.failed(EntryKind.FILE, src, dst, Diagnostic.of("error writing {0}", dst, Diagnostic.reasonOf(e.getCause())));
            return -1;
        } catch (IOException e) {
            Diagnostic why = Errors.isWriteSide(e)
                    ? Diagnostic.of("error writing {0}", dst, Diagnostic.reasonOf(e))
                    : Diagnostic.of("error reading {0}", src, Diagnostic.reasonOf(e));
            run.failed(EntryKind.FILE, src, dst, why);
            return -1;
        }
    }
}
