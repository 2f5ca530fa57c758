package dev.cpx.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.testing.LoopFileSystem;
import dev.cpx.testing.Unprivileged;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The scheduling state read from real threads' {@code /proc/self/task/TID/stat}, and more workers
 * admitted only while workers really wait on a disk: threads in uninterruptible sleep on a frozen
 * file system ({@code fsfreeze}: a {@code mkdir} there waits in state {@code D} until it thaws).
 */
class DiskWaitsTest {

    @TempDir
    Path tmp;

    /** Workers as a run's pool starts them: each waits for admission, then works (here: {@code work}). */
    private static List<Thread> workers(DiskWaits waits, Semaphore admitted, int n, AtomicInteger started,
            ThrowingRunnable work) {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(() -> {
                admitted.acquireUninterruptibly();
                waits.register();
                started.incrementAndGet();
                try {
                    work.run();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }, "worker-" + i);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        return threads;
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void workersWaitingOnAFrozenDiskLetMoreStartAndBusyOnesDoNot() throws Exception {
        assumeTrue(Unprivileged.isRoot(), "mounting and freezing a file system needs root");
        LoopFileSystem disk = LoopFileSystem.ext4(tmp, "disk", "");
        Path mnt = disk.root();
        CountDownLatch release = new CountDownLatch(1);
        List<Thread> all = new ArrayList<>();
        try {
            // Busy workers (running or asleep, never on the disk): nobody more is admitted.
            DiskWaits busy = new DiskWaits(4);
            Semaphore busyAdmitted = busy.admitted(2);
            AtomicInteger busyStarted = new AtomicInteger();
            busy.start();
            all.addAll(workers(busy, busyAdmitted, 2, busyStarted, release::await));
            all.addAll(workers(busy, busyAdmitted, 4, busyStarted, release::await));
            Thread.sleep(20L * DiskWaits.PERIOD_MS);
            assertEquals(2, busyStarted.get());
            busy.stop();

            // Workers waiting on the frozen disk: the others are admitted, one per core at a time.
            disk.freeze();
            DiskWaits waits = new DiskWaits(4);
            Semaphore admitted = waits.admitted(2);
            AtomicInteger started = new AtomicInteger();
            AtomicInteger dirs = new AtomicInteger();
            waits.start();
            all.addAll(workers(waits, admitted, 6, started,
                    () -> Files.createDirectory(mnt.resolve("d" + dirs.incrementAndGet()))));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (started.get() < 6 && System.nanoTime() < deadline) {
                Thread.sleep(DiskWaits.PERIOD_MS);
            }
            assertEquals(6, started.get(), "workers admitted while the others wait on the disk");
            waits.stop();
        } finally {
            disk.thaw();
            release.countDown();
            for (Thread t : all) {
                t.join(10_000);
            }
            disk.close();
        }
        assertTrue(Files.notExists(mnt.resolve("d1")), "unmounted");
    }

    @Test
    void aThreadReadingItsOwnStateIsRunning() throws Exception {
        try (FileChannel c = FileChannel.open(DiskWaits.statOfThisThread())) {
            assertEquals('R', DiskWaits.state(c, ByteBuffer.allocate(512)));
        }
    }

    /** Samples that found nobody on the disk slow the watch down, to 8 times its period at most. */
    @ParameterizedTest
    @CsvSource({"0, 20", "24, 20", "25, 40", "49, 40", "50, 80", "75, 160", "100000, 160"})
    void theWatchSlowsDownWhileNobodyWaitsOnTheDisk(int quiet, long millis) {
        assertEquals(millis, DiskWaits.period(quiet));
    }

    /**
     * The rule. {@code samples}: one letter a sample, "D" a worker on the disk with cores idle (fewer
     * running than cores), "d" one on the disk with the cores busy, "i" cores idle with nobody on the
     * disk, "." neither; {@code wait}/{@code total}: the window's CPU time waiting for I/O and in all,
     * spread over its samples (0/0: {@code /proc/stat} not read).
     */
    @ParameterizedTest
    @CsvSource({
        // samples wait total admit
        "DDD..,   0,   0,    true",   // cores idle while workers wait (a frozen disk; no /proc/stat needed)
        "DD...,   0,   0,    false",
        "DDiii,   0,   20,   false",
        "dd...,   1,   20,   true",   // cold cache: workers seen running mostly, the CPUs 5% in iowait
        "d.d.d,   8,   20,   true",
        "ddddd,   2,   40,   true",
        "ddddd,   1,   40,   false",  // workers in D, the CPUs hardly waiting: busy, or the D a lock's
        "ddddd,   0,   20,   false",
        "d....,   10,  20,   false",  // one stray wait
        "iiiii,   20,  20,   false",  // another program's reads, none of ours on the disk
        "dd...,   0,   0,    false",  // no CPU time read
    })
    void moreWorkersOnlyWhileWorkersWaitOnTheDiskAndCoresSitIdle(String samples, long wait, long total, boolean admit) {
        int n = DiskWaits.WINDOW;
        boolean[] onDisk = new boolean[n];
        boolean[] coresIdle = new boolean[n];
        long[] waits = new long[n];
        long[] totals = new long[n];
        for (int i = 0; i < n; i++) {
            char c = samples.charAt(i);
            onDisk[i] = c == 'D' || c == 'd';
            coresIdle[i] = c == 'D' || c == 'i';
            waits[i] = wait / n + (i < wait % n ? 1 : 0);
            totals[i] = total / n + (i < total % n ? 1 : 0);
        }
        assertEquals(admit, DiskWaits.admitMore(onDisk, coresIdle, waits, totals));
    }

    @Test
    void aNameWithParenthesesDoesNotHideTheState() throws Exception {
        AtomicReference<Path> stat = new AtomicReference<>();
        CountDownLatch known = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            try {
                stat.set(DiskWaits.statOfThisThread());
                known.countDown();
                release.await();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, "w) S (x");
        t.start();
        known.await();
        try (FileChannel c = FileChannel.open(stat.get())) {
            char state;
            do {
                state = DiskWaits.state(c, ByteBuffer.allocate(512));
            } while (state == 'R'); // until it sleeps in await()
            assertEquals('S', state);
        } finally {
            release.countDown();
            t.join();
        }
    }
}
