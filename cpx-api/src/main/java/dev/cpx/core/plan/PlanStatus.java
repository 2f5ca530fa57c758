package dev.cpx.core.plan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Where a plan stands, read from its directories and reports (see {@code CopyPlan.Status}). */
public record PlanStatus(int chunks, int todo, int claimed, int done, int failed, long bytes, long bytesDone,
        double bytesPerSecond, long etaNanos) {

    public static PlanStatus of(PlanDirectory plan) throws IOException {
        List<Manifest.Chunk> all = plan.manifest().chunks();
        Set<String> done = new HashSet<>(PlanDirectory.list(plan.done()));
        int todo = PlanDirectory.list(plan.todo()).size();
        int claimed = Claims.holders(plan).size();
        long bytes = 0;
        long bytesDone = 0;
        int failed = 0;
        for (Manifest.Chunk c : all) {
            bytes += c.bytes();
            if (done.contains(c.name())) {
                bytesDone += c.bytes();
                try {
                    ChunkReport r = ChunkReport.read(plan.reports().resolve(c.name()));
                    if (r.failed() > 0 || !r.rejected().isEmpty()) {
                        failed++;
                    }
                } catch (NoSuchFileException e) {
                    failed++;
                }
            }
        }
        double rate = 0;
        long eta = -1;
        Path started = plan.root().resolve(PlanDirectory.STARTED);
        if (Files.exists(started)) {
            double seconds = (System.currentTimeMillis() - Files.getLastModifiedTime(started).toMillis()) / 1000.0;
            if (seconds > 0 && bytesDone > 0) {
                rate = bytesDone / seconds;
                eta = (long) ((bytes - bytesDone) / rate * 1e9);
            }
        }
        return new PlanStatus(all.size(), todo, claimed, done.size() - failed, failed, bytes, bytesDone, rate, eta);
    }
}
