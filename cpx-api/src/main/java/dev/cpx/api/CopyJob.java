package dev.cpx.api;

import java.util.List;

/** A copy that is running in the background: watch it, cancel it, wait for it. */
public interface CopyJob {

    /** Counters of the copy so far; cheap enough to call ten times a second. */
    Progress progress();

    /**
     * The files whose data is being copied right now, as a snapshot in no particular order; cheap
     * enough to call ten times a second. Empty where an implementation does not track them.
     */
    default List<FileInFlight> inFlight() {
        return List.of();
    }

    /**
     * The most worker threads the copy has let run at once so far: those it started with, and those
     * it added while workers waited on the disk. 0 where an implementation does not say.
     *
     * @since 0.2.0
     */
    default int workers() {
        return 0;
    }

    /**
     * Stops starting new files. Files in flight are abandoned cleanly: a file being created stays under
     * its temporary name, never under its final name; a file being overwritten in place (its old data
     * already gone) is finished. Idempotent.
     */
    void cancel();

    /** Whether {@link #cancel()} was called. */
    boolean isCancelled();

    /** Waits for the copy to finish (or to wind down after a cancel) and returns its totals. */
    CopySummary await() throws InterruptedException;
}
