package dev.cpx.spi.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which calls a batch of closes becomes: a table of descriptors put off and the calls made of them. */
class CloseBatchTest {

    /** The calls asked for, in order: "close N" or "range A-B". */
    private static final class Calls implements CloseBatch.Closer {
        final List<String> made = new ArrayList<>();
        final int rangeErrno;

        Calls(int rangeErrno) {
            this.rangeErrno = rangeErrno;
        }

        @Override
        public void close(int fd) {
            made.add("close " + fd);
        }

        @Override
        public int closeRange(int first, int last) {
            made.add("range " + first + "-" + last);
            return rangeErrno;
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "5            | close 5",
        "7 5 6        | range 5-7",
        "9 3 4 10 20  | range 3-4, range 9-10, close 20",
        "8 6 4        | close 4, close 6, close 8",
        "1 2 4 5      | range 1-2, range 4-5",
    })
    void consecutiveNumbersAreClosedByOneCall(String fds, String calls) {
        Calls c = new Calls(0);
        CloseBatch b = new CloseBatch(c, CloseBatch.SIZE);
        for (String fd : fds.trim().split(" +")) {
            b.add(Integer.parseInt(fd));
        }
        assertEquals(List.of(), c.made, "nothing closed before the batch is full or flushed");
        b.flush();
        assertEquals(List.of(calls.trim().split(", ")), c.made);
        b.flush();
        assertEquals(List.of(calls.trim().split(", ")), c.made, "a second flush has nothing to close");
    }

    /** The batch's own sort agrees with {@code Arrays.sort} on the first n of random and nearly sorted arrays. */
    @Test
    void sortsTheFirstNAsArraysSortDoes() {
        java.util.Random random = new java.util.Random(42);
        for (int round = 0; round < 500; round++) {
            int n = random.nextInt(CloseBatch.SIZE + 1);
            int[] a = new int[CloseBatch.SIZE];
            for (int i = 0; i < a.length; i++) {
                a[i] = round % 2 == 0 ? random.nextInt(100) : i + 3 - random.nextInt(3);
            }
            int[] expected = a.clone();
            java.util.Arrays.sort(expected, 0, n);
            CloseBatch.sort(a, n);
            assertEquals(java.util.Arrays.toString(expected), java.util.Arrays.toString(a), "n = " + n);
        }
    }

    @Test
    void aFullBatchIsClosedAtOnce() {
        Calls c = new Calls(0);
        CloseBatch b = new CloseBatch(c, CloseBatch.SIZE);
        IntStream.range(100, 100 + CloseBatch.SIZE - 1).forEach(b::add);
        assertEquals(List.of(), c.made);
        b.add(100 + CloseBatch.SIZE - 1);
        assertEquals(List.of("range 100-" + (100 + CloseBatch.SIZE - 1)), c.made);
        b.add(500);
        b.flush();
        assertEquals(List.of("range 100-" + (100 + CloseBatch.SIZE - 1), "close 500"), c.made);
    }

    @Test
    void withoutCloseRangeEachIsClosedAndTheCallIsNotTriedAgain() {
        Calls c = new Calls(Errno.ENOSYS);
        CloseBatch b = new CloseBatch(c, CloseBatch.SIZE);
        List.of(3, 4, 5).forEach(b::add);
        b.flush();
        assertEquals(List.of("range 3-5", "close 3", "close 4", "close 5"), c.made);
        List.of(7, 8).forEach(b::add);
        b.flush();
        assertEquals(List.of("range 3-5", "close 3", "close 4", "close 5", "close 7", "close 8"), c.made);
    }

    /**
     * Out of descriptors, an engine asks for room before each new try: what waits is closed at once;
     * with nothing waiting it waits (for the other workers' files) and says to try again, until
     * {@link CloseBatch#ROOM_TRIES} tries; and a close another thread is making is waited for, so
     * the numbers are free when the try is made.
     */
    @Test
    void makingRoomClosesWhatWaitsAndLetsAnOpenBeTriedABoundedNumberOfTimes() throws Exception {
        Calls c = new Calls(0);
        CloseBatch b = new CloseBatch(c, CloseBatch.SIZE);
        List.of(3, 4, 6).forEach(b::add);
        assertEquals(true, b.makeRoom(0));
        assertEquals(List.of("range 3-4", "close 6"), c.made);
        assertEquals(true, b.makeRoom(1), "nothing waits: a millisecond for the other workers, then another try");
        assertEquals(false, b.makeRoom(CloseBatch.ROOM_TRIES));

        java.util.concurrent.CountDownLatch closing = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        List<String> closed = java.util.Collections.synchronizedList(new ArrayList<>());
        CloseBatch slow = new CloseBatch(new CloseBatch.Closer() {
            @Override
            public void close(int fd) {
                closing.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                closed.add("close " + fd);
            }

            @Override
            public int closeRange(int first, int last) {
                return Errno.ENOSYS;
            }
        });
        slow.add(9);
        Thread flusher = new Thread(slow::flush);
        flusher.start();
        closing.await();
        Thread releaser = new Thread(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            release.countDown();
        });
        releaser.start();
        assertEquals(true, slow.makeRoom(0));
        assertEquals(List.of("close 9"), closed, "the other thread's close was made before the new try");
        flusher.join();
        releaser.join();
    }
}
