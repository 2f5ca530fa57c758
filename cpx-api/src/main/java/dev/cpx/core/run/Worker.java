package dev.cpx.core.run;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.Semaphore;

/**
 * A worker thread of a run's pool. Where the run may grow ({@link DiskWaits}), the pool has room for
 * all the workers it may have, but each worker waits for its turn to start ({@code admitted}) before
 * it takes any task: {@code jobs} start at once, the others only once workers wait on the disk.
 */
final class Worker extends ForkJoinWorkerThread {

    private final DiskWaits waits;
    private final Semaphore admitted;

    Worker(ForkJoinPool pool, String name, DiskWaits waits, Semaphore admitted) {
        super(pool);
        setName(name);
        this.waits = waits;
        this.admitted = admitted;
    }

    /** Whether this worker's pool may still grow and has not grown yet. */
    boolean mayGrow() {
        return waits != null && waits.added() == 0;
    }

    @Override
    protected void onStart() {
        super.onStart();
        if (admitted != null) {
            admitted.acquireUninterruptibly();
            waits.register();
        }
    }

    @Override
    protected void onTermination(Throwable exception) {
        if (admitted != null) {
            admitted.release(); // (idle long enough to end: another may start in its place)
        }
        super.onTermination(exception);
    }
}
