package dev.cpx.core.plan;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyJob;
import dev.cpx.api.CopyListener;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.CopySummary;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.FileOutcome;
import dev.cpx.api.OverwritePolicy;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.fs.TempNames;
import dev.cpx.core.run.Workers;
import dev.cpx.core.walk.EntryList;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.PosixExtras;
import dev.cpx.spi.support.PathBytes;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Copies one chunk with the single-machine engine: the chunk's entries, each with its target, go to
 * one scheduler run ({@link EntryList}: one pool of {@code jobs} threads, GNU's rules per entry as
 * inside a directory that existed) with the plan's options and {@code --resume}'s rules, so copying
 * a chunk again skips what is complete. Ranges of split files are copied by {@link SplitFiles}. The
 * second and later names of a hard-linked inode are linked to the first one's copy. Nothing is
 * copied of a chunk whose checksum differs from the manifest's.
 */
public final class ChunkCopier {

    /** What a worker copies with: the scheduler's run over a list of entries, an engine, the native extras. */
    public interface Runs {
        /** Starts one run copying {@code entries} on {@code workers} (the scheduler's {@code startEntries}). */
        CopyJob start(List<EntryList.Item> entries, CopyOptions options, CopyListener listener, Workers workers)
                throws Exception;

        /** The engine the options name. */
        CopyEngine engine(CopyOptions options) throws IOException;

        PosixExtras extras();
    }

    /**
     * Entries copied by one scheduler run at most: a chunk of more is copied in several, so what a
     * worker holds at once, and what piles up in its heap between two collections, does not grow
     * with the size of the chunks (at 1,000,000 files in 64 chunks, one run at a time, runs of 4,096
     * entries peaked at 68.3 MB, runs of 1,024 at 60.9 MB, with no more CPU; docs/cluster.md). With
     * {@link #IN_FLIGHT} runs going at once, runs of 1,024 peaked at 66-76 MB on the Linux tree, runs
     * of 512 at 59-61 MB (one run of 1,024 at a time: 55-57 MB).
     */
    static final int SLICE = 512;
    /** Runs of one chunk going on at once at most (each of a {@link #SLICE}). */
    static final int IN_FLIGHT = 2;

    private final PlanDirectory plan;
    private final CopyOptions options;
    private final Runs runs;
    private final SplitFiles splits;
    /** The threads every run of this worker is copied by, made at its first run; null before. */
    private Workers workers;

    /** {@code jobs}: see {@link #workerOptions}. */
    ChunkCopier(PlanDirectory plan, Runs runs, int jobs) throws IOException {
        this.plan = plan;
        this.options = workerOptions(plan.options(), jobs);
        this.runs = runs;
        this.splits = new SplitFiles(plan, options, runs.engine(options), runs.extras());
    }

    /**
     * The options a worker copies with: the plan's, its entries named one by one (the walk and the
     * excludes happened at plan time) under {@code --resume}'s rules, with exactly {@code jobs}
     * threads as {@code -j} gives them, or, for 0, the defaults of a copy without {@code -j} (more
     * threads while they wait on the disk). The plan's own thread counts are the planner's.
     */
    static CopyOptions workerOptions(CopyOptions planned, int jobs) {
        // The plan's dereferencing as it is in effect: -H's operands (a chunk's entries named as operands) followed.
        return planned.toBuilder().excludes(List.of()).resume(true)
                .jobs(jobs > 0 ? jobs : CopyOptions.defaultJobs())
                .maxJobs(jobs > 0 ? jobs : CopyOptions.defaultMaxJobs())
                .dereference(planned.effectiveDereference()).build();
    }

    private Workers workers() {
        if (workers == null) {
            workers = new Workers(options.jobs(), options.maxJobs());
        }
        return workers;
    }

    /** Ends the worker threads, once no run is going. */
    void close() {
        if (workers != null) {
            workers.close();
        }
    }

    /**
     * Starts copying one chunk: reads and checks it, makes its directories and starts a run per
     * slice of its entries, {@link #IN_FLIGHT} at most at once, the last ones left going;
     * {@link Copying#finish} completes it. Meanwhile the worker can claim and read the next chunk,
     * and start its runs while this one's last entries are copied (a run ends with fewer files left
     * than workers: the next run's keep the others busy).
     */
    Copying start(String chunk, Path file, String worker) throws IOException, InterruptedException {
        Copying c = new Copying(chunk, worker);
        byte[] content = Files.readAllBytes(file);
        Manifest.Chunk expected = plan.manifest().get(chunk);
        if (expected == null) {
            c.rejected = "not in the plan's manifest";
        } else if (expected.checksum() != Manifest.checksum(content)) {
            c.rejected = "changed after planning (checksum differs from the manifest's)";
        }
        if (!c.rejected.isEmpty()) {
            return c;
        }
        List<EntryList.Item> items = new ArrayList<>();
        boolean links = options.preserves(Attribute.LINKS);
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(content))) {
            for (PlanEntry e = PlanEntry.read(in); e != null; e = PlanEntry.read(in)) {
                try {
                    if (e.operand() < 0 || e.operand() >= plan.operands()) {
                        throw new PlanNames.UnsafeName("operand " + e.operand() + " not in the plan");
                    }
                    PlanNames.components(e.name());
                } catch (PlanNames.UnsafeName u) {
                    c.counts.incrementAndGet(5);
                    c.failures.add(FileOutcome.failed(EntryKind.UNKNOWN, null, null, new Diagnostic(
                            "refusing " + PlanNames.show(e.name()) + " in chunk " + chunk, List.of(), u.getMessage())));
                    continue;
                }
                if (links && e.linkGroup() != 0) {
                    if (c.leaders.putIfAbsent(e.linkGroup(), e) != null) {
                        c.followers.add(e);
                        continue;
                    }
                }
                if (e.kind() == PlanEntry.RANGE) {
                    c.ranges.add(e);
                    continue;
                }
                Path target = target(e, c.dirs, c.counts, c.failures);
                if (target != null) {
                    items.add(new EntryList.Item(source(e), target, e.name().length == 0, plan.staged(e.operand()),
                            e.kind() == PlanEntry.FILE, plan.source(e.operand()), plan.target(e.operand())));
                    if (items.size() == SLICE) {
                        c.launch(items);
                        items = new ArrayList<>();
                    }
                }
            }
        }
        c.launch(items);
        return c;
    }

    /** A chunk being copied: its last run may still be going. */
    final class Copying {
        private final String chunk;
        private final String worker;
        private final long start = System.nanoTime();
        private String rejected = "";
        private final List<FileOutcome> failures = Collections.synchronizedList(new ArrayList<>());
        /** Files, symlinks, specials, bytes, skipped, failed. */
        private final AtomicLongArray counts = new AtomicLongArray(6);
        private final List<PlanEntry> ranges = new ArrayList<>();
        private final List<PlanEntry> followers = new ArrayList<>();
        private final Map<Long, PlanEntry> leaders = new HashMap<>();
        private final SafeDirectories dirs = new SafeDirectories(runs.extras().descriptors().orElse(null));
        /** The runs going on, not awaited yet, the oldest first. */
        private final ArrayDeque<CopyJob> running = new ArrayDeque<>();

        private Copying(String chunk, String worker) {
            this.chunk = chunk;
            this.worker = worker;
        }

        /** Starts one scheduler run over {@code items}, once fewer than {@link #IN_FLIGHT} of this chunk's are going. */
        private void launch(List<EntryList.Item> items) throws IOException, InterruptedException {
            if (items.isEmpty()) {
                return;
            }
            while (running.size() >= IN_FLIGHT) {
                awaitOldest();
            }
            CopyListener listener = new CopyListener() {
                @Override
                public void entryDone(FileOutcome outcome) {
                    if (outcome.status() == FileOutcome.Status.FAILED) {
                        failures.add(outcome);
                    }
                }

                /** The chunk's counts come from the run's summary: only failures are kept. */
                @Override
                public boolean hearsEveryCopy() {
                    return false;
                }
            };
            try {
                running.add(runs.start(acrossDirectories(items), options, listener, workers()));
            } catch (InterruptedException | IOException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException("copying chunk " + chunk + ": " + e.getMessage(), e);
            }
        }

        /**
         * Waits for the oldest run going on, and counts it. (What the runs leave behind is collected
         * by the JVM: the launcher starts a worker with a small heap, see its script.)
         */
        private void awaitOldest() throws InterruptedException {
            CopySummary s = running.remove().await();
            counts.addAndGet(0, s.files());
            counts.addAndGet(1, s.symlinks());
            counts.addAndGet(2, s.specials());
            counts.addAndGet(3, s.bytes());
            counts.addAndGet(4, s.skipped());
            counts.addAndGet(5, s.failed());
        }

        /** Waits for the last run, copies the split files' ranges and links the later names of hard links: the chunk's report. */
        ChunkReport finish() throws IOException, InterruptedException {
            try (dirs) {
                return finishing();
            }
        }

        private ChunkReport finishing() throws IOException, InterruptedException {
            if (!rejected.isEmpty()) {
                return new ChunkReport(chunk, worker, 0, 0, 0, 0, 0, 0, System.nanoTime() - start, rejected, List.of());
            }
            while (!running.isEmpty()) {
                awaitOldest();
            }
            for (PlanEntry r : ranges) {
                try (SafeDirectories.Reached t = reach(r, dirs, counts, failures)) {
                    if (t != null) {
                        splits.copyRange(r, t.at(), t.shown(), counts, failures);
                    }
                }
            }
            for (PlanEntry f : followers) {
                link(leaders.get(f.linkGroup()), f, dirs, counts, failures);
            }
            return new ChunkReport(chunk, worker, counts.get(0), counts.get(1), counts.get(2), counts.get(3), counts.get(4),
                    counts.get(5), System.nanoTime() - start, "", failures);
        }
    }

    /**
     * The entries taken from each destination directory in turn (the first of each, then the second
     * of each, ...), so the files copied at once mostly go to different directories: files made at
     * once in one directory wait for each other on its lock in the kernel.
     */
    static List<EntryList.Item> acrossDirectories(List<EntryList.Item> items) {
        Map<Path, List<EntryList.Item>> byDirectory = new java.util.LinkedHashMap<>();
        for (EntryList.Item i : items) {
            byDirectory.computeIfAbsent(i.target().getParent(), d -> new ArrayList<>()).add(i);
        }
        if (byDirectory.size() < 2) {
            return items;
        }
        List<EntryList.Item> order = new ArrayList<>(items.size());
        List<java.util.Iterator<EntryList.Item>> groups = new ArrayList<>();
        byDirectory.values().forEach(g -> groups.add(g.iterator()));
        while (order.size() < items.size()) {
            for (java.util.Iterator<EntryList.Item> g : groups) {
                if (g.hasNext()) {
                    order.add(g.next());
                }
            }
        }
        return order;
    }

    private Path source(PlanEntry e) {
        return SafeDirectories.shown(plan.source(e.operand()), e.name());
    }

    /**
     * Where {@code e}'s copy goes, its directories made below the operand's target without following
     * a symbolic link; null when that fails (reported).
     */
    private Path target(PlanEntry e, SafeDirectories dirs, AtomicLongArray counts, List<FileOutcome> failures) {
        try {
            List<byte[]> parts = PlanNames.components(e.name());
            if (parts.isEmpty()) {
                return plan.target(e.operand());
            }
            Path dir = dirs.ensure(plan.target(e.operand()), plan.targetFollowed(e.operand()), parts.subList(0, parts.size() - 1));
            return dir.resolve(PathBytes.path(parts.get(parts.size() - 1)));
        } catch (IOException | PlanNames.UnsafeName x) {
            refused(e, x, counts, failures);
            return null;
        }
    }

    /**
     * {@link SafeDirectories#reach} of {@code e}'s copy (its directories made below the operand's
     * target without following a symbolic link); null when that fails (reported).
     */
    private SafeDirectories.Reached reach(PlanEntry e, SafeDirectories dirs, AtomicLongArray counts, List<FileOutcome> failures) {
        try {
            return dirs.reach(plan.target(e.operand()), plan.targetFollowed(e.operand()), e.name());
        } catch (IOException | PlanNames.UnsafeName x) {
            refused(e, x, counts, failures);
            return null;
        }
    }

    /** Reports that {@code e}'s copy has no directory to go into ({@code why}). */
    private void refused(PlanEntry e, Exception why, AtomicLongArray counts, List<FileOutcome> failures) {
        counts.incrementAndGet(5);
        Path target = SafeDirectories.shown(plan.target(e.operand()), e.name());
        failures.add(FileOutcome.failed(EntryKind.UNKNOWN, null, target,
                new Diagnostic("cannot copy into the directory of " + dev.cpx.api.ShellQuote.quote(target),
                        List.of(), why.getMessage())));
    }

    /**
     * A second name of a hard-linked inode: a link to the first name's copy, unless it is one already;
     * both reached through their directories opened one name at a time ({@link SafeDirectories#reach}).
     */
    private void link(PlanEntry leader, PlanEntry follower, SafeDirectories dirs, AtomicLongArray counts,
            List<FileOutcome> failures) {
        Path targetRoot = plan.target(follower.operand());
        boolean followed = plan.targetFollowed(follower.operand());
        Path leaderTarget = SafeDirectories.shown(plan.target(leader.operand()), leader.name());
        Path source = source(follower);
        Path target = SafeDirectories.shown(targetRoot, follower.name());
        try (SafeDirectories.Reached first = dirs.reach(plan.target(leader.operand()), plan.targetFollowed(leader.operand()),
                leader.name()); SafeDirectories.Reached second = dirs.reach(targetRoot, followed, follower.name())) {
            Stat firstStat = Stat.lstat(first.at());
            Stat existing = Stat.lstatOrNull(second.at());
            if (existing != null && existing.dev() == firstStat.dev() && existing.ino() == firstStat.ino()) {
                counts.incrementAndGet(4);
                return;
            }
            if (existing != null && options.overwrite() == OverwritePolicy.NO_CLOBBER) {
                counts.incrementAndGet(4);
                return;
            }
            Path temp = TempNames.of(second.at());
            Files.deleteIfExists(temp);
            Files.createLink(temp, first.at());
            Files.move(temp, second.at(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            counts.incrementAndGet(0);
        } catch (IOException | PlanNames.UnsafeName e) {
            counts.incrementAndGet(5);
            failures.add(FileOutcome.failed(EntryKind.FILE, source, target, Diagnostic.of("cannot create hard link {0} to {1}",
                    target, leaderTarget).withReason(e instanceof IOException io ? Diagnostic.reasonOf(io) : e.getMessage())));
        }
    }

}
