package dev.cpx.example.throttled;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The pacing arithmetic, on a clock the test moves: no real waiting, no timing. */
class ThrottleTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private long now = 1_000_000_000L;
    private final List<Long> waits = new ArrayList<>();

    private Throttle throttle(long bytesPerSecond) {
        return new Throttle(bytesPerSecond, () -> now, nanos -> {
            waits.add(nanos);
            now += nanos;
        });
    }

    @Test
    void theFirstBytesGoAtOnceAndTheNextWaitTheirTime() throws Exception {
        Throttle t = throttle(1000);
        t.acquire(500);
        t.acquire(500);
        t.acquire(250);
        assertEquals(List.of(500 * MS, 500 * MS), waits);
    }

    @Test
    void workTimeCountsTowardsTheWait() throws Exception {
        Throttle t = throttle(1000);
        t.acquire(1000);
        now += 400 * MS; // the copy itself took 400 ms
        t.acquire(1000);
        assertEquals(List.of(600 * MS), waits);
    }

    @Test
    void aPauseEarnsNoBurst() throws Exception {
        Throttle t = throttle(1000);
        t.acquire(100);
        now += 10_000 * MS;
        t.acquire(1000);
        t.acquire(1);
        assertEquals(List.of(1000 * MS), waits);
    }

    @Test
    void threadsShareOneRate() throws Exception {
        // The clock stands still, so every acquire reserves the next slot: with 4 threads of 50 calls of
        // 10 bytes at 1000 bytes/s, the waits are exactly 0, 10, 20, ... 1990 ms, in some order.
        List<Long> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        Throttle t = new Throttle(1000, () -> now, seen::add);
        Thread[] threads = new Thread[4];
        for (int i = 0; i < threads.length; i++) {
            threads[i] = new Thread(() -> {
                try {
                    for (int k = 0; k < 50; k++) {
                        t.acquire(10);
                    }
                } catch (InterruptedIOException e) {
                    throw new AssertionError(e);
                }
            });
            threads[i].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        List<Long> expected = new ArrayList<>();
        for (int k = 1; k < 200; k++) {
            expected.add(k * 10 * MS);
        }
        List<Long> sorted = new ArrayList<>(seen);
        sorted.sort(null);
        assertEquals(expected, sorted);
    }

    @Test
    void anInterruptedWaitIsACancelledCopy() {
        Throttle t = new Throttle(1, System::nanoTime, nanos -> {
            throw new InterruptedException();
        });
        assertThrows(InterruptedIOException.class, () -> {
            t.acquire(1);
            t.acquire(1);
        });
        assertTrue(Thread.interrupted(), "the interrupt is kept for the caller");
    }
}
