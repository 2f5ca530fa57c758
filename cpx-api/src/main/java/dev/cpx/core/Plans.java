package dev.cpx.core;

import dev.cpx.api.CopyOptions;
import dev.cpx.api.CopyPlan;
import dev.cpx.api.CopySummary;
import dev.cpx.api.Cpx;
import dev.cpx.api.FileOutcome;
import dev.cpx.api.CopyJob;
import dev.cpx.api.CopyListener;
import dev.cpx.api.EngineRegistry;
import dev.cpx.core.plan.ChunkCopier;
import dev.cpx.core.plan.ChunkReport;
import dev.cpx.core.walk.EntryList;
import dev.cpx.spi.CopyEngine;
import dev.cpx.core.plan.Finisher;
import dev.cpx.core.plan.PlanDirectory;
import dev.cpx.core.plan.PlanStatus;
import dev.cpx.core.plan.Planner;
import dev.cpx.core.plan.Worker;
import dev.cpx.core.run.Workers;
import dev.cpx.spi.PosixExtras;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The steps of a {@link CopyPlan}, as the library's entry point reaches them: the one door from
 * {@code dev.cpx.api} into the plan's machinery ({@code dev.cpx.core.plan}), as {@link Scheduler} is
 * the one into a run's. Each step answers in the API's types.
 */
public final class Plans {

    private Plans() {
    }

    /** Walks {@code sources} and writes the plan into {@code directory}. */
    public static CopyPlan.Planned create(Path directory, List<Path> sources, Path destination, CopyOptions options,
            int chunks, Duration lease, long splitSize, PosixExtras extras) throws IOException {
        Planner.Result r = new Planner(sources, destination, options, chunks, lease.toMillis(), splitSize, extras)
                .write(directory);
        return new CopyPlan.Planned(r.chunks(), r.entries(), r.directories(), r.bytes(), r.largestChunkEntries(),
                r.largestChunkBytes(), Duration.ofNanos(r.nanos()));
    }

    /**
     * Claims and copies chunks until none is left, each in one run of the scheduler over its entries
     * ({@link Scheduler#startEntries}) with {@code cpx}'s engines, all on the same worker threads.
     */
    public static CopyPlan.WorkDone work(Path directory, Cpx cpx, int jobs, Consumer<String> log)
            throws IOException, InterruptedException {
        PosixExtras extras = cpx.engines().extras().orElse(PosixExtras.none());
        ChunkCopier.Runs runs = new ChunkCopier.Runs() {
            @Override
            public CopyJob start(List<EntryList.Item> entries, CopyOptions options, CopyListener listener, Workers workers)
                    throws Exception {
                return Scheduler.startEntries(entries, options, engine(options), extras, listener, workers);
            }

            @Override
            public CopyEngine engine(CopyOptions options) throws IOException {
                try {
                    return cpx.engines().select(options.engine());
                } catch (EngineRegistry.UnknownEngineException e) {
                    throw new IOException(e.getMessage(), e);
                }
            }

            @Override
            public PosixExtras extras() {
                return extras;
            }
        };
        Worker.Result r = new Worker(PlanDirectory.open(directory), runs, jobs, log).run();
        List<FileOutcome> failures = new ArrayList<>();
        r.chunks().forEach(c -> failures.addAll(c.failures()));
        CopySummary s = ChunkReport.sum(r.chunks(), 0, 0, Duration.ofNanos(r.nanos()));
        return new CopyPlan.WorkDone(r.chunks().size(), s, failures, r.rejected());
    }

    /** Finishes the copy once every chunk is done. */
    public static CopyPlan.Finished finish(Path directory, PosixExtras extras) throws IOException {
        Finisher.Result r = new Finisher(PlanDirectory.open(directory), extras).run();
        return new CopyPlan.Finished(r.summary(), r.failures(), r.notDone());
    }

    /** Where the plan stands. */
    public static CopyPlan.Status status(Path directory) throws IOException {
        PlanStatus s = PlanStatus.of(PlanDirectory.open(directory));
        return new CopyPlan.Status(s.chunks(), s.todo(), s.claimed(), s.done(), s.failed(), s.bytes(), s.bytesDone(),
                s.bytesPerSecond(), s.etaNanos() < 0 ? null : Duration.ofNanos(s.etaNanos()));
    }
}
