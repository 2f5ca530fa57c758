package dev.cpx.core.run;

import dev.cpx.spi.support.OpenFilesLimit;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The worker threads runs are copied by: one run's own, or shared by runs made one after the other
 * (a plan's worker copies chunk after chunk), so that threads, and the copy buffers each keeps for
 * its life, are made once rather than per run and left for the collector.
 */
public final class Workers implements AutoCloseable {

    private static final int CPUS = Runtime.getRuntime().availableProcessors();

    final ForkJoinPool pool;
    private final int jobs;
    /** Null when there are exactly {@code jobs} workers. */
    private final DiskWaits waits;

    /**
     * {@code jobs} workers at once, up to {@code max} while workers wait on the disk ({@link DiskWaits});
     * fewer where the descriptor limit leaves room for fewer ({@link OpenFilesLimit.Shares#workers}: a file and its copy each).
     */
    public Workers(int jobs, int max) {
        int room = OpenFilesLimit.shares().workers();
        if (max > room) {
            max = room;
            jobs = Math.min(jobs, room);
        }
        AtomicInteger ids = new AtomicInteger();
        this.jobs = jobs;
        this.waits = max > jobs ? new DiskWaits(max - jobs) : null;
        Semaphore admitted = waits == null ? null : waits.admitted(jobs);
        // Room for max workers, of which jobs start at once and the others once workers wait on the disk
        // (DiskWaits); at the maximum, a worker that blocks is not replaced (saturated: it just waits).
        this.pool = new ForkJoinPool(max, p -> new Worker(p, "cpx-worker-" + ids.incrementAndGet(), waits, admitted),
                null, false, 0, max, 1, p -> true, 30, TimeUnit.SECONDS);
        if (waits != null) {
            waits.start();
        }
    }

    /** The most workers let run at once so far: the first ones and those {@link DiskWaits} added. */
    public int admitted() {
        return waits == null ? jobs : jobs + waits.added();
    }

    /**
     * How many workers may share one directory's entries now, asked by a worker of a run: as many as
     * there are CPUs while its pool may grow and has not yet ({@link DiskWaits} has seen no worker
     * wait on the disk), else any number. Workers beyond the CPUs sharing a directory whose files
     * come from the page cache make most of them out of their turn (unnamed, then linked: on a
     * journaled ext4 twice a create's kernel work); where the copy waits on the disk, more reads in
     * flight are worth more than the order.
     */
    public static int sharing() {
        return Thread.currentThread() instanceof Worker w && w.mayGrow() ? CPUS : Integer.MAX_VALUE;
    }

    /** Ends the threads once they have nothing left to do. */
    @Override
    public void close() {
        pool.shutdown();
        if (waits != null) {
            waits.stop();
        }
    }
}
