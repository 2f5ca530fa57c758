package dev.cpx.api;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One copy run by many processes on many nodes, in three steps, through a plan directory on a
 * file system they all see: {@link #create} walks the sources once and writes the plan (the options,
 * the directory list, chunks of entries); any number of {@link #work} calls, anywhere, claim chunks
 * one at a time and copy them with the single-machine engine; {@link #finish} gives the directories
 * their attributes and adds up the chunks' outcomes. {@link #status} shows how far it got.
 *
 * <pre>{@code
 * CopyPlan plan = CopyPlan.at(Cpx.create(), Path.of("/shared/plan"));
 * plan.create(List.of(Path.of("/data")), Path.of("/archive"), options, 64, CopyPlan.DEFAULT_LEASE);
 * plan.work(4, System.err::println);      // on each node, as often as wanted
 * CopyPlan.Finished result = plan.finish();
 * }</pre>
 *
 * Problems with the plan itself (another user's plan, an incomplete one, options a plan cannot
 * carry out) are {@link IOException}s with a one-line message; problems with entries are data in
 * the results.
 *
 * @since 0.3.0
 */
public final class CopyPlan {

    /** How long a worker on another host may go without renewing its claim before its chunk is taken again. */
    public static final Duration DEFAULT_LEASE = Duration.ofMinutes(2);

    /**
     * Regular files (of one name) larger than this are split into ranges of about this size, in
     * different chunks, so different workers copy them; the file appears under its name only once
     * every range is in.
     */
    public static final long DEFAULT_SPLIT_SIZE = 1L << 30;

    /** What {@link #create} wrote: chunks, entries (non-directories), directories, bytes, and the largest chunk. */
    public record Planned(int chunks, long entries, long directories, long bytes, long largestChunkEntries,
            long largestChunkBytes, Duration elapsed) {
    }

    /** What one {@link #work} call copied: chunks, their totals and failures, and chunks refused as changed. */
    public record WorkDone(int chunks, CopySummary summary, List<FileOutcome> failures, List<String> rejectedChunks) {
        public boolean succeeded() {
            return summary.succeeded() && rejectedChunks.isEmpty();
        }
    }

    /** The whole copy's outcome, from {@link #finish}. */
    public record Finished(CopySummary summary, List<FileOutcome> failures, List<String> chunksNotDone) {
        public boolean succeeded() {
            return summary.succeeded() && chunksNotDone.isEmpty();
        }
    }

    /**
     * Where a plan stands: chunks to do, claimed, done, and done with failures; bytes in all and in
     * done chunks; the rate since the first claim and the time left at that rate (null when unknown).
     */
    public record Status(int chunks, int todo, int claimed, int done, int failed, long bytes, long bytesDone,
            double bytesPerSecond, Duration eta) {
    }

    private final Cpx cpx;
    private final Path directory;

    private CopyPlan(Cpx cpx, Path directory) {
        this.cpx = Objects.requireNonNull(cpx, "cpx");
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    /** The plan in {@code directory}, copied with {@code cpx}'s engines. */
    public static CopyPlan at(Cpx cpx, Path directory) {
        return new CopyPlan(cpx, directory);
    }

    public Path directory() {
        return directory;
    }

    /**
     * Plans copying {@code sources} to {@code destination} as {@code cp} with {@code options} would
     * (excludes applied now), in about {@code chunks} chunks; the directory must not exist or be empty.
     */
    public Planned create(List<Path> sources, Path destination, CopyOptions options, int chunks, Duration lease)
            throws IOException {
        return create(sources, destination, options, chunks, lease, DEFAULT_SPLIT_SIZE);
    }

    /**
     * {@link #create(List, Path, CopyOptions, int, Duration)}, splitting regular files larger than
     * {@code splitSize} bytes into ranges copied by different workers (0: no file is split).
     *
     * @since 0.3.0
     */
    public Planned create(List<Path> sources, Path destination, CopyOptions options, int chunks, Duration lease,
            long splitSize) throws IOException {
        return cpx.plan(directory, sources, destination, options, chunks, lease, splitSize);
    }

    /**
     * Claims and copies chunks until none is left to claim, with exactly {@code jobs} threads
     * copying (as {@code -j} gives them; 0: as many as a copy without {@code -j} has, more while
     * they wait on the disk); chunks whose worker is gone are taken again. {@code log} hears warnings.
     */
    public WorkDone work(int jobs, Consumer<String> log) throws IOException, InterruptedException {
        return cpx.work(directory, jobs, log);
    }

    /** Finishes the copy once every chunk is done; see {@link Finished}. */
    public Finished finish() throws IOException {
        return cpx.finish(directory);
    }

    public Status status() throws IOException {
        return cpx.status(directory);
    }
}
