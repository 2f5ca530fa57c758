package dev.cpx.example.throttled;

import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Paces bytes to a rate shared by all threads: each call reserves the next slot of time its bytes
 * take at the rate, and waits until that slot begins. A pause earns no credit: after it, the rate
 * holds again from the first byte, with no burst.
 */
final class Throttle {

    /** How the throttle waits; a test passes one that records instead of sleeping. */
    interface Sleeper {
        void sleep(long nanos) throws InterruptedException;
    }

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final long bytesPerSecond;
    private final LongSupplier clock;
    private final Sleeper sleeper;
    /** When the bytes reserved so far have all had their time, on the clock's scale. */
    private long nextFree;

    Throttle(long bytesPerSecond) {
        this(bytesPerSecond, System::nanoTime, nanos -> TimeUnit.NANOSECONDS.sleep(nanos));
    }

    Throttle(long bytesPerSecond, LongSupplier clock, Sleeper sleeper) {
        if (bytesPerSecond < 1) {
            throw new IllegalArgumentException("rate must be positive");
        }
        this.bytesPerSecond = bytesPerSecond;
        this.clock = clock;
        this.sleeper = sleeper;
        this.nextFree = clock.getAsLong();
    }

    long bytesPerSecond() {
        return bytesPerSecond;
    }

    /**
     * Waits until {@code bytes} more bytes fit in the rate.
     *
     * @throws InterruptedIOException when the thread is interrupted (the copy is being cancelled)
     */
    void acquire(long bytes) throws InterruptedIOException {
        long wait;
        synchronized (this) {
            long now = clock.getAsLong();
            long start = Math.max(nextFree, now);
            wait = start - now;
            nextFree = start + durationOf(bytes);
        }
        if (wait > 0) {
            try {
                sleeper.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while throttled");
            }
        }
    }

    /** Nanoseconds that {@code bytes} take at the rate (to the nanosecond; no overflow for any count). */
    private long durationOf(long bytes) {
        return (long) Math.min((double) bytes * SECOND / bytesPerSecond, Long.MAX_VALUE / 2.0);
    }
}
