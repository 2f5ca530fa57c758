package dev.cpx.core.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A directory's files named in index order; how many may wait holding a descriptor is {@code OpenFilesLimitTest}'s. */
class SequencedInsertionsTest {

    @Test
    void filesAreNamedInIndexOrderWhateverOrderTheyComeIn() {
        List<Integer> named = new ArrayList<>();
        AtomicInteger waiting = new AtomicInteger();
        SequencedInsertions order = new SequencedInsertions(4, waiting);
        order.insert(2, () -> named.add(2), true);
        order.skip(1);
        assertEquals(List.of(), named, "0 not there yet");
        assertEquals(1, waiting.get(), "2 waits holding its descriptor");
        order.insert(0, () -> named.add(0), true);
        assertEquals(List.of(0, 2), named);
        assertEquals(0, waiting.get());
        order.insert(3, () -> named.add(3), false);
        assertEquals(List.of(0, 2, 3), named);
    }

    /**
     * Four threads inserting and skipping 20,000 entries in a shuffled order (none holding a
     * descriptor, which could go ahead of its turn): every naming runs once,
     * in index order, each while its entry is the one in turn (the entries before it all named),
     * however the namings are shared out between the threads (one names while the others go on).
     */
    @Test
    void concurrentInsertionsAreNamedOnceInIndexOrder() throws Exception {
        int n = 20_000;
        List<Integer> shuffled = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            shuffled.add(i);
        }
        java.util.Collections.shuffle(shuffled, new java.util.Random(42));
        SequencedInsertions order = new SequencedInsertions(n, new AtomicInteger());
        List<Integer> named = java.util.Collections.synchronizedList(new ArrayList<>());
        List<String> wrong = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicInteger taken = new AtomicInteger();
        inThreads(4, () -> {
            for (int k = taken.getAndIncrement(); k < n; k = taken.getAndIncrement()) {
                int index = shuffled.get(k);
                if (index % 7 == 3) {
                    order.skip(index);
                } else {
                    // (one holding a descriptor may go ahead of its turn when too many wait)
                    order.insert(index, namingInTurn(order, index, named, wrong), false);
                }
            }
        });
        assertEquals(0, wrong.size(), () -> wrong.subList(0, Math.min(5, wrong.size())).toString());
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (i % 7 != 3) {
                expected.add(i);
            }
        }
        assertEquals(expected, named);
        assertEquals(true, order.inTurn(n), "every entry named or skipped");
    }

    /** {@code awaitTurn}: true at once in turn; false at once far from it; false after its wait when nothing comes. */
    @Test
    void awaitTurnWaitsOnlyForANearTurn() {
        SequencedInsertions order = new SequencedInsertions(20, new AtomicInteger(), true);
        assertTrue(order.awaitTurn(0));
        assertFalse(order.awaitTurn(1 + SequencedInsertions.NEAR), "far from its turn: not waited for");
        assertFalse(order.awaitTurn(1), "near, but entry 0 is never made: false after the wait");
        order.skip(0);
        assertTrue(order.awaitTurn(1));
        assertFalse(order.inTurn(2));
        assertFalse(new SequencedInsertions(4, new AtomicInteger()).awaitTurn(1), "without waiting");
    }

    /**
     * Two threads taking the entries one at a time, as the workers sharing a directory do: an entry
     * whose turn came while waiting ({@code awaitTurn}) is made at once and passes its turn; any other
     * is inserted to be named in its turn. Every entry is named once, in index order, and most are
     * made in their turn.
     */
    @Test
    void entriesTakenInTurnAreMadeInIndexOrder() throws Exception {
        int n = 20_000;
        SequencedInsertions order = new SequencedInsertions(n, new AtomicInteger(), true);
        List<Integer> named = java.util.Collections.synchronizedList(new ArrayList<>());
        List<String> wrong = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicInteger taken = new AtomicInteger();
        AtomicInteger madeInTurn = new AtomicInteger();
        inThreads(2, () -> {
            for (int i = taken.getAndIncrement(); i < n; i = taken.getAndIncrement()) {
                if (order.awaitTurn(i)) {
                    named.add(i);
                    madeInTurn.incrementAndGet();
                    order.skip(i);
                } else {
                    order.insert(i, namingInTurn(order, i, named, wrong), false);
                }
            }
        });
        assertEquals(0, wrong.size(), () -> wrong.subList(0, Math.min(5, wrong.size())).toString());
        assertEquals(java.util.stream.IntStream.range(0, n).boxed().toList(), named);
        assertTrue(order.inTurn(n), "every entry named or skipped");
        assertTrue(madeInTurn.get() > 0, "some made in their turn");
    }

    /** A naming that records {@code index} in {@code named}, and in {@code wrong} when it runs out of its turn. */
    private static Runnable namingInTurn(SequencedInsertions order, int index, List<Integer> named, List<String> wrong) {
        return () -> {
            if (!order.inTurn(index)) {
                wrong.add("named out of turn: " + index);
            }
            named.add(index);
        };
    }

    /** Runs {@code body} on {@code count} threads at once and waits for them. */
    private static void inThreads(int count, Runnable body) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < count; t++) {
            Thread thread = new Thread(body);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }
}
