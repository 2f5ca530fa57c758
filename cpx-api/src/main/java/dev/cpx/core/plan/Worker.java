package dev.cpx.core.plan;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
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
            for (Optional<Claims.Claim> next = claims.next(); next.isPresent(); next = claims.next()) {
                Claims.Claim claim = next.get();
                markStarted();
                var renewal = heartbeat.scheduleAtFixedRate(() -> {
                    if (!claim.renew()) {
                        log.accept("warning: lost the lease on chunk " + claim.chunk() + " (another worker took it over)");
                    }
                }, renewEvery, renewEvery, TimeUnit.MILLISECONDS);
                ChunkReport report;
                try {
                    report = copier.copy(claim.chunk(), claim.file(), claims.who());
                } finally {
                    renewal.cancel(false);
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
        } finally {
            heartbeat.shutdownNow();
        }
        return new Result(reports, System.nanoTime() - start);
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
