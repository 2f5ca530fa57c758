package dev.cpx.core.plan;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyListener;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.CopySummary;
import dev.cpx.api.Dereference;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.FileOutcome;
import dev.cpx.core.finish.Metadata;
import dev.cpx.core.fs.Anchors;
import dev.cpx.core.fs.Effects;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.run.Counters;
import dev.cpx.core.run.Outcomes;
import dev.cpx.spi.PosixExtras;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The last step of a plan: once every chunk is done, makes the directories no chunk made (empty
 * ones), gives every directory its attributes deepest first (so a read-only or dated directory is
 * set after everything inside it is in place), and adds the chunks' reports up into one summary.
 * Chunks not done, and chunks refused as changed, are failures named in the result; then no
 * directory gets its final attributes, so workers can still go on.
 */
public final class Finisher {

    /** The whole copy's outcome. */
    public record Result(CopySummary summary, List<FileOutcome> failures, List<String> notDone) {
    }

    private final PlanDirectory plan;
    private final PosixExtras extras;

    public Finisher(PlanDirectory plan, PosixExtras extras) {
        this.plan = plan;
        this.extras = extras;
    }

    public Result run() throws IOException {
        long start = System.nanoTime();
        Set<String> done = new HashSet<>(PlanDirectory.list(plan.done()));
        List<String> notDone = new ArrayList<>();
        List<FileOutcome> failures = Collections.synchronizedList(new ArrayList<>());
        long failed = 0;
        List<ChunkReport> reports = new ArrayList<>();
        List<String[]> holders = Claims.holders(plan);
        for (Manifest.Chunk c : plan.manifest().chunks()) {
            if (!done.contains(c.name())) {
                String holder = holders.stream().filter(h -> h[0].equals(c.name())).map(h -> " (claimed by " + h[1] + ")")
                        .findFirst().orElse(" (never claimed)");
                notDone.add(c.name());
                failures.add(FileOutcome.failed(EntryKind.UNKNOWN, null, null,
                        new Diagnostic("chunk " + c.name() + " is not done" + holder, List.of(), "")));
                failed++;
                continue;
            }
            ChunkReport r = ChunkReport.read(plan.reports().resolve(c.name()));
            reports.add(r);
            failures.addAll(r.failures());
            if (!r.rejected().isEmpty()) {
                failed++;
                failures.add(FileOutcome.failed(EntryKind.UNKNOWN, null, null,
                        new Diagnostic("chunk " + c.name() + " was not copied", List.of(), r.rejected())));
            }
        }
        Counters counters = new Counters();
        if (notDone.isEmpty()) {
            reports.add(splitFiles(failures));
            directories(failures, counters);
            for (int op = 0; op < plan.operands(); op++) {
                if (plan.staged(op)) {
                    publish(op, failures, counters);
                }
            }
        }
        long elapsed = System.nanoTime() - start;
        Path started = plan.root().resolve(PlanDirectory.STARTED);
        if (Files.exists(started)) {
            elapsed = Math.max(elapsed, (System.currentTimeMillis() - Files.getLastModifiedTime(started).toMillis()) * 1_000_000L);
        }
        CopySummary summary = ChunkReport.sum(reports, counters.directories.sum(), failed + counters.failed.sum(),
                Duration.ofNanos(elapsed));
        return new Result(summary, List.copyOf(failures), notDone);
    }

    /**
     * Every split file whose ranges are all copied but which is not in place yet (its last range's
     * worker died before completing it) is completed now, before its directory gets its times; what
     * is found and done is reported as a chunk of its own.
     */
    private ChunkReport splitFiles(List<FileOutcome> failures) throws IOException {
        long start = System.nanoTime();
        AtomicLongArray counts = new AtomicLongArray(6);
        List<FileOutcome> found = new ArrayList<>();
        SplitFiles splits = new SplitFiles(plan, plan.options(), null, extras);
        try (SafeDirectories safe = new SafeDirectories(extras == null ? null : extras.descriptors().orElse(null));
                DataInputStream in = new DataInputStream(new Buffered.Input(Files.newInputStream(plan.splits())))) {
            for (SplitFiles.Split s = SplitFiles.read(in); s != null; s = SplitFiles.read(in)) {
                SafeDirectories.Reached target;
                try {
                    target = safe.reach(root(s.operand()), plan.targetFollowed(s.operand()), s.name());
                } catch (IOException | PlanNames.UnsafeName e) {
                    counts.incrementAndGet(SplitFiles.FAILS);
                    found.add(FileOutcome.failed(EntryKind.FILE, null, null, new Diagnostic("cannot complete "
                            + PlanNames.show(s.name()), List.of(), e.getMessage())));
                    continue;
                }
                try (target) {
                    splits.finish(s, target.at(), target.shown(), counts, found);
                }
            }
        }
        failures.addAll(found);
        return new ChunkReport("finish", "finish", counts.get(0), 0, 0, 0, 0, counts.get(SplitFiles.FAILS),
                System.nanoTime() - start, "", found);
    }

    /**
     * Where the operand's copy is now: for a staged operand, its staging name until a finish renamed
     * it to its target (then the target: finishing again does not make the staging name anew).
     */
    private Path root(int operand) {
        Path at = plan.target(operand);
        if (plan.staged(operand) && Stat.lstatOrNull(at) == null && Stat.lstatOrNull(plan.finalTarget(operand)) != null) {
            return plan.finalTarget(operand);
        }
        return at;
    }

    /**
     * Gives a staged operand's copy, complete now, its final name, never replacing what has that name
     * ({@code renameat2(RENAME_NOREPLACE)}); one renamed by an earlier finish is left as it is.
     */
    private void publish(int operand, List<FileOutcome> failures, Counters counters) {
        Path staging = plan.target(operand);
        Path target = plan.finalTarget(operand);
        if (Stat.lstatOrNull(staging) == null) {
            return;
        }
        try {
            // renameat2(RENAME_NOREPLACE) where the extras have it: what took the name meanwhile is kept.
            PosixExtras x = extras == null ? PosixExtras.none() : extras;
            Effects.live(x, Anchors.of(x.descriptors().orElse(null))).renameNoReplace(staging, target);
        } catch (IOException x) {
            counters.failed.increment();
            failures.add(FileOutcome.failed(EntryKind.DIRECTORY, plan.source(operand), target, new Diagnostic(
                    "cannot create directory {0} (the copy is complete in {1})", List.of(target, staging), Diagnostic.reasonOf(x))));
        }
    }

    /** Every directory of the list, deepest first: made if missing, then given its attributes. */
    private void directories(List<FileOutcome> failures, Counters counters) throws IOException {
        CopyOptions o = plan.options();
        CopyListener listener = new CopyListener() {
            @Override
            public void entryDone(FileOutcome outcome) {
                if (outcome.status() == FileOutcome.Status.FAILED) {
                    failures.add(outcome);
                }
            }
        };
        Outcomes outcomes = new Outcomes(listener, counters);
        // Each directory is opened from its operand's target one name at a time (never through a
        // symbolic link put in the place of one) and given its attributes through that descriptor
        // (its /proc/self/fd path): a directory swapped meanwhile is not followed. Without
        // descriptor operations, by path.
        Metadata metadata = PlanAttributes.of(o, extras, outcomes);
        Dereference deref = o.effectiveDereference();
        int umask = plan.umask();
        try (SafeDirectories safe = new SafeDirectories(extras == null ? null : extras.descriptors().orElse(null));
                DataInputStream in = new DataInputStream(new Buffered.Input(Files.newInputStream(plan.dirs())))) {
            for (PlanDirectory.Dir d = PlanDirectory.readDir(in); d != null; d = PlanDirectory.readDir(in)) {
                Path src = SafeDirectories.shown(plan.source(d.operand()), d.name());
                SafeDirectories.Reached dst;
                try {
                    dst = safe.directory(root(d.operand()), plan.targetFollowed(d.operand()), PlanNames.components(d.name()));
                } catch (IOException | PlanNames.UnsafeName e) {
                    outcomes.failed(EntryKind.DIRECTORY, src, null, new Diagnostic("cannot make directory for "
                            + PlanNames.show(d.name()), List.of(), e.getMessage()));
                    continue;
                }
                try (dst) {
                    directory(d, src, dst.shown(), dst.at(), o, metadata, deref, umask, outcomes, counters);
                }
            }
        }
    }

    /** Gives the directory {@code dst}, reached at {@code at}, its attributes from its source {@code src}. */
    private static void directory(PlanDirectory.Dir d, Path src, Path dst, Path at, CopyOptions o, Metadata metadata,
            Dereference deref, int umask, Outcomes outcomes, Counters counters) {
        counters.directories.increment();
        boolean follow = deref == Dereference.ALWAYS || (d.name().length == 0 && deref != Dereference.NEVER);
        Stat st;
        try {
            st = Stat.of(src, follow);
        } catch (IOException e) {
            outcomes.failed(EntryKind.DIRECTORY, src, dst, Diagnostic.of("cannot stat {0}", src, Diagnostic.reasonOf(e)));
            return;
        }
        if (!d.existed() && !o.preserves(Attribute.MODE)) {
            int mode = o.defaultModes() ? 0777 & ~umask : st.permissions() & 0777 & ~umask;
            Stat now = Stat.statOrNull(at);
            metadata.chmod(src, at, dst, mode | (now == null ? 0 : now.permissions() & 02000));
        }
        Stat now = Stat.statOrNull(at);
        metadata.apply(src, at, dst, st, false, metadata.copiesXattrs(), now == null ? 0 : now.permissions() & 07000);
    }
}
