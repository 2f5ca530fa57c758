package dev.cpx.core.run;

import dev.cpx.spi.CopyProgress;
import java.io.InterruptedIOException;

/**
 * Whether the run has been asked to stop, and the byte progress that stops an engine when it has
 * (a copy that must be finished, an overwrite in place, counts its bytes with {@link #finishing}).
 */
public final class Cancellation {

    private final Counters counters;
    private volatile boolean cancelled;
    private final CopyProgress progress;
    private final CopyProgress finishing;

    Cancellation(Counters counters) {
        this.counters = counters;
        this.progress = bytes -> {
            if (cancelled) {
                throw new InterruptedIOException("copy cancelled");
            }
            counters.bytesDone.add(bytes);
        };
        this.finishing = bytes -> counters.bytesDone.add(bytes);
    }

    void cancel() {
        cancelled = true;
    }

    public boolean cancelled() {
        return cancelled;
    }

    /** Counts copied bytes; throws {@link InterruptedIOException} once the run is cancelled. */
    public CopyProgress progress() {
        return progress;
    }

    /** Counts copied bytes and never stops: for a copy that must not be left half done. */
    public CopyProgress finishing() {
        return finishing;
    }

    /** Bytes that count as copied without an engine (a clone, a resumed part). */
    public void advance(long bytes) {
        counters.bytesDone.add(bytes);
    }
}
