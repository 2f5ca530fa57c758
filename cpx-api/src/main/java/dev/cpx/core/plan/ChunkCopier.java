package dev.cpx.core.plan;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyJob;
import dev.cpx.api.CopyListener;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.CopySummary;
import dev.cpx.api.Dereference;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.FileOutcome;
import dev.cpx.api.OverwritePolicy;
import dev.cpx.api.TargetMode;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.fs.TempNames;
import dev.cpx.spi.support.PathBytes;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Copies one chunk with the single-machine engine: the chunk's entries, grouped by destination
 * directory, go to {@code cp SOURCE... DIRECTORY} runs (at most {@link #BATCH} sources each, {@link #RUNS}
 * at once, each with {@code jobs} threads), with the plan's options and {@code --resume}'s rules, so copying a chunk
 * again skips what is complete. The second and later names of a hard-linked inode are linked to the
 * first one's copy. Nothing is copied of a chunk whose checksum differs from the manifest's.
 */
public final class ChunkCopier {

    /** Starts one single-machine copy (the library's {@code Cpx.start}). */
    public interface Starter {
        CopyJob start(List<Path> sources, Path destination, CopyOptions options, CopyListener listener) throws Exception;
    }

    /** Sources per single-machine run. */
    static final int BATCH = 64;
    /** Single-machine runs at once, each with the worker's {@code -j} threads: one run's last files overlap the next one's first. */
    static final int RUNS = 2;

    private final PlanDirectory plan;
    private final CopyOptions options;
    private final Starter starter;
    private final int jobs;

    ChunkCopier(PlanDirectory plan, Starter starter, int jobs) throws IOException {
        this.plan = plan;
        CopyOptions o = plan.options();
        boolean followInside = o.effectiveDereference() == Dereference.ALWAYS;
        // The walk happened at plan time: the entries are named one by one.
        this.options = o.toBuilder().excludes(List.of()).resume(true).jobs(Math.max(1, jobs))
                .dereference(followInside ? Dereference.ALWAYS : Dereference.NEVER).build();
        this.starter = starter;
        this.jobs = Math.max(1, jobs);
    }

    /** One single-machine run: entries of one directory. */
    private record Batch(int operand, byte[] parent, List<byte[]> names, boolean operandItself) {
    }

    ChunkReport copy(String chunk, Path file, String worker) throws IOException, InterruptedException {
        long start = System.nanoTime();
        byte[] content = Files.readAllBytes(file);
        Manifest.Chunk expected = plan.manifest().get(chunk);
        String rejected = "";
        if (expected == null) {
            rejected = "not in the plan's manifest";
        } else if (!Arrays.equals(expected.sha256(), sha256(content))) {
            rejected = "changed after planning (checksum differs from the manifest's)";
        }
        if (!rejected.isEmpty()) {
            return new ChunkReport(chunk, worker, 0, 0, 0, 0, 0, 0, System.nanoTime() - start, rejected, List.of());
        }
        List<FileOutcome> failures = Collections.synchronizedList(new ArrayList<>());
        // files, symlinks, specials, bytes, skipped, failed
        AtomicLongArray counts = new AtomicLongArray(6);
        Map<String, Batch> batches = new LinkedHashMap<>();
        List<Batch> order = new ArrayList<>();
        List<PlanEntry> followers = new ArrayList<>();
        Map<Long, PlanEntry> leaders = new HashMap<>();
        boolean links = options.preserves(Attribute.LINKS);
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(content))) {
            for (PlanEntry e = PlanEntry.read(in); e != null; e = PlanEntry.read(in)) {
                List<byte[]> parts;
                try {
                    if (e.operand() < 0 || e.operand() >= plan.operands()) {
                        throw new PlanNames.UnsafeName("operand " + e.operand() + " not in the plan");
                    }
                    parts = PlanNames.components(e.name());
                } catch (PlanNames.UnsafeName u) {
                    counts.incrementAndGet(5);
                    failures.add(FileOutcome.failed(EntryKind.UNKNOWN, null, null, new Diagnostic(
                            "refusing " + PlanNames.show(e.name()) + " in chunk " + chunk, List.of(), u.getMessage())));
                    continue;
                }
                if (links && e.linkGroup() != 0) {
                    if (leaders.putIfAbsent(e.linkGroup(), e) != null) {
                        followers.add(e);
                        continue;
                    }
                }
                if (parts.isEmpty()) {
                    Batch b = new Batch(e.operand(), new byte[0], List.of(e.name()), true);
                    order.add(b);
                    continue;
                }
                byte[] parent = parent(e.name());
                String key = e.operand() + "/" + Arrays.toString(parent);
                Batch b = batches.get(key);
                if (b == null || b.names().size() >= BATCH) {
                    b = new Batch(e.operand(), parent, new ArrayList<>(), false);
                    batches.put(key, b);
                    order.add(b);
                }
                b.names().add(parts.get(parts.size() - 1));
            }
        }
        SafeDirectories dirs = new SafeDirectories();
        CopyListener listener = new CopyListener() {
            @Override
            public void entryDone(FileOutcome outcome) {
                if (outcome.status() == FileOutcome.Status.FAILED) {
                    failures.add(outcome);
                }
            }
        };
        ExecutorService pool = Executors.newFixedThreadPool(RUNS, r -> {
            Thread t = new Thread(r, "cpx-chunk");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> running = new ArrayList<>();
            for (Batch b : order) {
                running.add(pool.submit(() -> {
                    run(b, dirs, listener, counts, failures);
                    return null;
                }));
            }
            for (Future<?> f : running) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new IOException("copying chunk " + chunk + ": " + e.getCause(), e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        for (PlanEntry f : followers) {
            link(leaders.get(f.linkGroup()), f, dirs, counts, failures);
        }
        return new ChunkReport(chunk, worker, counts.get(0), counts.get(1), counts.get(2), counts.get(3), counts.get(4),
                counts.get(5), System.nanoTime() - start, "", failures);
    }

    private void run(Batch b, SafeDirectories dirs, CopyListener listener, AtomicLongArray counts, List<FileOutcome> failures)
            throws Exception {
        Path sourceRoot = plan.source(b.operand());
        Path targetRoot = plan.target(b.operand());
        CopySummary s;
        if (b.operandItself()) {
            s = starter.start(List.of(sourceRoot), targetRoot, options.toBuilder().target(TargetMode.NO_DIRECTORY).build(),
                    listener).await();
        } else {
            Path dir;
            try {
                synchronized (dirs) {
                    dir = dirs.ensure(targetRoot, plan.targetFollowed(b.operand()), PlanNames.components(b.parent()));
                }
            } catch (IOException | PlanNames.UnsafeName e) {
                for (byte[] n : b.names()) {
                    counts.incrementAndGet(5);
                    Path target = targetRoot.resolve(PathBytes.path(PlanNames.join(b.parent(), n)));
                    failures.add(FileOutcome.failed(EntryKind.UNKNOWN, null, target,
                            new Diagnostic("cannot copy into the directory of " + dev.cpx.api.ShellQuote.quote(target),
                                    List.of(), e.getMessage())));
                }
                return;
            }
            Path sourceDir = b.parent().length == 0 ? sourceRoot : sourceRoot.resolve(PathBytes.path(b.parent()));
            List<Path> sources = new ArrayList<>(b.names().size());
            for (byte[] n : b.names()) {
                sources.add(sourceDir.resolve(PathBytes.path(n)));
            }
            s = starter.start(sources, dir, options.toBuilder().target(TargetMode.DIRECTORY).build(), listener).await();
        }
        counts.addAndGet(0, s.files());
        counts.addAndGet(1, s.symlinks());
        counts.addAndGet(2, s.specials());
        counts.addAndGet(3, s.bytes());
        counts.addAndGet(4, s.skipped());
        counts.addAndGet(5, s.failed());
    }

    /** A second name of a hard-linked inode: a link to the first name's copy, unless it is one already. */
    private void link(PlanEntry leader, PlanEntry follower, SafeDirectories dirs, AtomicLongArray counts,
            List<FileOutcome> failures) {
        Path targetRoot = plan.target(follower.operand());
        Path leaderTarget = targetRoot.resolve(PathBytes.path(leader.name()));
        Path source = plan.source(follower.operand()).resolve(PathBytes.path(follower.name()));
        Path target = targetRoot.resolve(PathBytes.path(follower.name()));
        try {
            List<byte[]> parts = PlanNames.components(follower.name());
            Path dir = dirs.ensure(targetRoot, plan.targetFollowed(follower.operand()), parts.subList(0, parts.size() - 1));
            target = dir.resolve(PathBytes.path(parts.get(parts.size() - 1)));
            Stat first = Stat.lstat(leaderTarget);
            Stat existing = Stat.lstatOrNull(target);
            if (existing != null && existing.dev() == first.dev() && existing.ino() == first.ino()) {
                counts.incrementAndGet(4);
                return;
            }
            if (existing != null && options.overwrite() == OverwritePolicy.NO_CLOBBER) {
                counts.incrementAndGet(4);
                return;
            }
            Path temp = TempNames.of(target);
            Files.deleteIfExists(temp);
            Files.createLink(temp, leaderTarget);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            counts.incrementAndGet(0);
        } catch (IOException | PlanNames.UnsafeName e) {
            counts.incrementAndGet(5);
            failures.add(FileOutcome.failed(EntryKind.FILE, source, target, Diagnostic.of("cannot create hard link {0} to {1}",
                    target, leaderTarget).withReason(e instanceof IOException io ? Diagnostic.reasonOf(io) : e.getMessage())));
        }
    }

    private static byte[] parent(byte[] name) {
        for (int i = name.length - 1; i >= 0; i--) {
            if (name[i] == '/') {
                return Arrays.copyOf(name, i);
            }
        }
        return new byte[0];
    }

    static byte[] sha256(byte[] content) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(content);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
