package dev.cpx.core.run;

import dev.cpx.api.CopyJob;
import dev.cpx.api.CopyListener;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.CopySummary;
import dev.cpx.api.FileInFlight;
import dev.cpx.api.Progress;
import dev.cpx.core.fs.Anchors;
import dev.cpx.core.fs.Effects;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.PosixExtras;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

/**
 * One copy in progress: the worker pool, cancellation, and the end of the run, in one place. What
 * is copied, and how, is the root task's (see {@link dev.cpx.core.Scheduler}); this class only runs it.
 */
public final class CopyRun implements CopyJob {

    private final RunContext context;
    private final Supplier<List<FileInFlight>> inFlight;
    private final Workers workers;
    /** Whether the workers are this run's own, ended with it. */
    private final boolean ownWorkers;
    private final long startNanos = System.nanoTime();
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile CopySummary summary;
    /** Why the run's end could not be made (its summary), where it could not; null otherwise. */
    private volatile Throwable unfinished;

    private CopyRun(RunContext context, Supplier<List<FileInFlight>> inFlight, Workers shared, FirstWorkers.Pool pool) {
        this.context = context;
        this.inFlight = inFlight;
        this.workers = shared != null ? shared : new Workers(pool.workers(), pool.most());
        this.ownWorkers = shared == null;
    }

    /** What a run starts: its root task, made from the run's context, ending the run when it completes. */
    public interface Start {
        /**
         * @param context the run's context
         * @param end to be called once, when every task has completed
         */
        Root root(RunContext context, Runnable end);
    }

    /** The root task of a run, and what it knows of the files in flight. */
    public record Root(Task task, Supplier<List<FileInFlight>> inFlight) {
    }


    /** Starts a run in the background on a {@code pool} of workers of its own ({@link FirstWorkers}). */
    public static CopyRun start(CopyOptions options, CopyEngine engine, PosixExtras extras, CopyListener listener,
            Start start, FirstWorkers.Pool pool) {
        return start(options, engine, extras, listener, start, null, pool);
    }

    /**
     * Starts a run in the background on {@code shared} workers, left running when it ends (null: its
     * own, made for it). Runs on the same workers are made one after the other.
     */
    public static CopyRun start(CopyOptions options, CopyEngine engine, PosixExtras extras, CopyListener listener,
            Start start, Workers shared) {
        return start(options, engine, extras, listener, start, shared, null);
    }

    private static CopyRun start(CopyOptions options, CopyEngine engine, PosixExtras extras, CopyListener listener,
            Start start, Workers shared, FirstWorkers.Pool pool) {
        Counters counters = new Counters();
        Outcomes outcomes = new Outcomes(listener, counters);
        Cancellation cancellation = new Cancellation(counters);
        // (A dry run makes no directory to hold: it reads by paths.)
        Anchors anchors = options.dryRun() ? Anchors.none() : Anchors.of(extras.descriptors().orElse(null));
        Effects effects = options.dryRun() ? Effects.dryRun() : Effects.live(extras, anchors);
        RunContext context = new RunContext(options, engine, extras, outcomes, cancellation, effects, anchors);
        CopyRun[] self = new CopyRun[1];
        Root root = start.root(context, () -> self[0].finish());
        self[0] = new CopyRun(context, root.inFlight(), shared, pool);
        self[0].workers.pool.execute(root.task());
        return self[0];
    }

    @Override
    public Progress progress() {
        return context.counters().progress();
    }

    @Override
    public List<FileInFlight> inFlight() {
        return inFlight.get();
    }

    @Override
    public int workers() {
        return workers.admitted();
    }

    @Override
    public void cancel() {
        context.cancellation().cancel();
    }

    @Override
    public boolean isCancelled() {
        return context.cancelled();
    }

    /**
     * {@inheritDoc} Where the run's end itself failed (a class its summary needs could not be loaded:
     * under a low descriptor limit the JVM has none left to open it with), an
     * {@link IllegalStateException} saying so rather than a wait that never ends.
     */
    @Override
    public CopySummary await() throws InterruptedException {
        done.await();
        Throwable t = unfinished;
        if (t != null) {
            String why = t.getMessage() != null ? t.getMessage() : t.toString();
            throw new IllegalStateException("the copy could not finish: "
                    + (t instanceof NoClassDefFoundError ? "cannot load " + why : why), t);
        }
        return summary;
    }

    /** The run's end, once: whatever fails here, its own workers end and {@link #await} returns (or says why it cannot). */
    private void finish() {
        try {
            if (context.anchors().active()) {
                context.anchors().descriptors().closePutOff();
            }
            Counters c = context.counters();
            c.walkDone = true;
            summary = new CopySummary(c.files.sum(), c.directories.sum(), c.symlinks.sum(), c.specials.sum(),
                    c.bytes.sum(), c.skipped.sum(), c.failed.sum(), Duration.ofNanos(System.nanoTime() - startNanos),
                    context.cancelled());
        } catch (Throwable t) {
            unfinished = t;
        } finally {
            try {
                if (ownWorkers) {
                    workers.close();
                }
            } finally {
                done.countDown();
            }
        }
    }
}
