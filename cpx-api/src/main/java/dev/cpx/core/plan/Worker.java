package dev.cpx.core.plan;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One worker of a plan: claims chunks one after the other until none is left, copies each (see
 * {@link ChunkCopier}) while renewing its lease, and records each chunk's outcome before marking it
 * done. Any number of workers, on any nodes, may run at once and start at any time.
 */
public final class Worker {

    /** What this worker did. */
    public record Result(List<ChunkReport> chunks, long nanos) {
        public long failed() {
            return chunks.stream().mapToLong(ChunkReport::failed).sum();
        }

        public List<String> rejected() {
            return chunks.stream().filter(c -> !c.rejected().isEmpty()).map(ChunkReport::chunk).toList();
        }
    }

    private final PlanDirectory plan;
    private final ChunkCopier copier;
    private final Claims claims;
    private final Consumer<String> log;

    public Worker(PlanDirectory plan, ChunkCopier.Runs runs, int jobs, Consumer<String> log) throws IOException {
        this.plan = plan;
        this.copier = new ChunkCopier(plan, runs, jobs);
        this.claims = new Claims(plan);
        this.log = log;
    }

    /**
     * Claims and copies chunks until none is left. A chunk's last runs are still going while the
     * next chunk is claimed, read, its directories made and its first runs started (see
     * {@link ChunkCopier#start}); then it is completed: its outcome recorded, then marked done.
     */
    public Result run() throws IOException, InterruptedException {
        long start = System.nanoTime();
        List<ChunkReport> reports = new ArrayList<>();
        long renewEvery = Math.max(50, plan.leaseMillis() / 4);
        ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cpx-lease");
            t.setDaemon(true);
            return t;
        });
        try {
            Held previous = null;
            for (Optional<Claims.Claim> next = claims.next(); next.isPresent(); next = claims.next()) {
                Claims.Claim claim = next.get();
                markStarted();
                ScheduledFuture<?> renewal = heartbeat.scheduleAtFixedRate(() -> {
                    if (!claim.renew()) {
                        log.accept("warning: lost the lease on chunk " + claim.chunk() + " (another worker took it over)");
                    }
                }, renewEvery, renewEvery, TimeUnit.MILLISECONDS);
                ChunkCopier.Copying copying;
                try {
                    copying = copier.start(claim.chunk(), claim.file(), claims.who());
                } catch (IOException | InterruptedException | RuntimeException e) {
                    renewal.cancel(false);
                    throw e;
                }
                complete(previous, reports);
                previous = new Held(claim, copying, renewal);
            }
            complete(previous, reports);
        } finally {
            heartbeat.shutdownNow();
            copier.close();
        }
        return new Result(reports, System.nanoTime() - start);
    }

    /** A chunk claimed and being copied, with its lease's renewal. */
    private record Held(Claims.Claim claim, ChunkCopier.Copying copying, ScheduledFuture<?> renewal) {
    }

    /** Completes {@code held} (none: nothing to do): its outcome recorded, then marked done. */
    private void complete(Held held, List<ChunkReport> reports) throws IOException, InterruptedException {
        if (held == null) {
            return;
        }
        Claims.Claim claim = held.claim();
        ChunkReport report;
        try {
            report = held.copying().finish();
        } finally {
            held.renewal().cancel(false);
        }
        PlanDirectory.writeAtomically(plan.reports().resolve(claim.chunk()), report.render());
        if (!claim.done()) {
            log.accept("warning: chunk " + claim.chunk() + " was taken over by another worker while this one copied it");
        }
        if (!report.rejected().isEmpty()) {
            log.accept("chunk " + claim.chunk() + " not copied: " + report.rejected());
        }
        reports.add(report);
    }

    /** The time of the first claim, for the status view's rate. */
    private void markStarted() {
        try {
            Files.createFile(plan.root().resolve(PlanDirectory.STARTED));
        } catch (FileAlreadyExistsException e) {
            // an earlier claim
        } catch (IOException e) {
            log.accept("warning: cannot mark the plan started: " + e.getMessage());
        }
    }
}
