package dev.cpx.spi.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class PerThreadTest {

    /** A worker that keeps its values in fields. */
    private static final class Keeper extends PerThread.Holder {
        Keeper(ForkJoinPool pool) {
            super(pool);
        }
    }

    private static <T> List<T> onTwoThreadsOf(boolean holders, java.util.concurrent.Callable<T> task) throws Exception {
        ForkJoinPool pool = new ForkJoinPool(2, p -> holders ? new Keeper(p) : new ForkJoinWorkerThread(p) { }, null, false);
        try {
            // Two tasks held until both started: one on each thread.
            java.util.concurrent.CyclicBarrier both = new java.util.concurrent.CyclicBarrier(2);
            var a = pool.submit(() -> {
                both.await();
                return task.call();
            });
            var b = pool.submit(() -> {
                both.await();
                return task.call();
            });
            return List.of(a.get(), b.get());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void eachThreadHasItsOwnValueMadeOnceWhetherItKeepsItInAFieldOrNot() throws Exception {
        for (boolean holders : new boolean[] {true, false}) {
            AtomicInteger made = new AtomicInteger();
            PerThread<Object> value = new PerThread<>(() -> {
                made.incrementAndGet();
                return new Object();
            });
            List<Object[]> seen = onTwoThreadsOf(holders, () -> new Object[] {value.get(), value.get(), Thread.currentThread()});
            assertSame(seen.get(0)[0], seen.get(0)[1], "the same value twice on one thread");
            assertSame(seen.get(1)[0], seen.get(1)[1]);
            assertNotSame(seen.get(0)[2], seen.get(1)[2], "two threads");
            assertNotSame(seen.get(0)[0], seen.get(1)[0], "each its own");
            assertEquals(2, made.get(), "made once a thread");
            assertEquals(holders, seen.get(0)[2] instanceof PerThread.Holder);
        }
    }

    @Test
    void moreValuesThanTheFirstRoomAreKeptPerThreadAllTheSame() throws Exception {
        List<PerThread<Object>> many = new java.util.ArrayList<>();
        for (int i = 0; i < PerThread.SLOTS + 4; i++) {
            many.add(new PerThread<>(Object::new));
        }
        List<List<Object>> seen = onTwoThreadsOf(true, () -> {
            List<Object> first = many.stream().map(PerThread::get).toList();
            List<Object> again = many.stream().map(PerThread::get).toList();
            for (int i = 0; i < first.size(); i++) {
                assertSame(first.get(i), again.get(i));
            }
            return first;
        });
        for (int i = 0; i < many.size(); i++) {
            assertNotSame(seen.get(0).get(i), seen.get(1).get(i));
        }
        AtomicReference<Object> onMain = new AtomicReference<>(many.get(0).get());
        assertSame(onMain.get(), many.get(0).get(), "a thread of no pool: its ThreadLocal");
    }
}
