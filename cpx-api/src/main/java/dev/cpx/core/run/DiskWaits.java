package dev.cpx.core.run;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Semaphore;

/**
 * Watches whether a run's workers wait on the disk, and lets more of them start while they do: a thread
 * reads each running worker's scheduling state ({@code /proc/self/task/TID/stat}) and the time the
 * CPUs sat idle waiting for I/O ({@link IoStalls}: the run's control group's {@code io.pressure}, else
 * the machine's {@code iowait}) every {@value #PERIOD_MS} ms, and admits one more worker per core
 * ({@link #admitMore}) when, over the last {@value #WINDOW} samples, workers were in uninterruptible
 * sleep ({@code D}: a read from a cold cache, mostly) while cores were left idle: in
 * {@value #ON_DISK_IDLE} samples with fewer workers running than cores, or in {@value #SAMPLES}
 * samples while the CPUs waited for I/O for at least {@value #IO_WAIT_PERCENT}% of the window's
 * time; up to
 * {@code extra} more in all. More reads are then in flight where the disk is what they wait for, and
 * never more workers than {@code jobs} where the CPU is (a warm cache or tmpfs: no worker is seen in
 * {@code D}; a saturated CPU: no time left to wait in). The workers' states alone miss most of a
 * cold copy's waits: each worker waits for many short reads and runs in between, so a sample finds it
 * running (machine A, Linux tree: four workers seen running in most samples while the CPUs sat 10-19%
 * in {@code iowait}). The CPUs' idle time would not do instead: a worker in {@code D} may be waiting
 * for a lock (a directory's, as workers create files in it, on a warm ext4), which is no
 * {@code iowait}, and idle time let such a warm copy grow to 16 workers. Where the waits cannot be
 * read, only the workers' states count. Where {@code /proc} cannot be read at all, the run
 * keeps its workers. While no worker is seen on the disk it looks less often, down to every
 * {@value #PERIOD_MS}{@code  << }{@value #SLOWEST} ms ({@link #period}): on a warm copy it never
 * finds one (no gain measured in wall or CPU time; kept as the cheaper watch).
 */
final class DiskWaits {

    static final int PERIOD_MS = 20;
    /** The period doubles after each {@value #QUIET_STEP} samples in a row finding no worker on the disk, this many times at most. */
    static final int SLOWEST = 3;
    static final int QUIET_STEP = 25;
    static final int WINDOW = 5;
    /** Samples (of the last {@link #WINDOW}) that must each find cores idle while workers wait on the disk. */
    static final int ON_DISK_IDLE = 3;
    /** Samples (of the last {@link #WINDOW}) that must each find workers on the disk, with the CPUs waiting for I/O. */
    static final int SAMPLES = 2;
    /** The CPUs' share of time waiting for I/O over the window, in percent, that counts as cores left idle for the disk. */
    static final int IO_WAIT_PERCENT = 5;

    private final int extra;
    private final List<Path> workers = new ArrayList<>();
    private final Semaphore admitted = new Semaphore(0);
    private volatile boolean stopped;
    /** Workers admitted beyond the first ones, so far. */
    private volatile int added;

    DiskWaits(int extra) {
        this.extra = extra;
    }

    /** The workers' admission, {@code jobs} of them at first (see {@link Worker}). */
    Semaphore admitted(int jobs) {
        admitted.release(jobs);
        return admitted;
    }

    /** The calling thread's own {@code /proc/PID/task/TID/stat}. */
    static Path statOfThisThread() throws IOException {
        // "PID/task/TID", ASCII digits.
        return Path.of("/proc").resolve(Files.readSymbolicLink(Path.of("/proc/thread-self"))).resolve("stat");
    }

    /** Workers admitted so far beyond the first ones (not counting those let go at the end, {@link #stop}). */
    int added() {
        return added;
    }

    /** Called by each worker as it starts, on its own thread. */
    void register() {
        Path self;
        try {
            self = statOfThisThread();
        } catch (IOException | UnsupportedOperationException e) {
            return;
        }
        synchronized (workers) {
            workers.add(self);
        }
    }

    /** Starts watching in the background (a daemon thread that ends with the run or once it decided). */
    void start() {
        Thread t = new Thread(this::watch, "cpx-disk-waits");
        t.setDaemon(true);
        t.start();
    }

    /** At the end of the run: workers still waiting to start may start, and end, with the pool. */
    void stop() {
        stopped = true;
        admitted.release(extra);
    }

    private void watch() {
        List<FileChannel> open = new ArrayList<>();
        ByteBuffer buf = ByteBuffer.allocate(512);
        int cores = Runtime.getRuntime().availableProcessors();
        boolean[] onDiskSeen = new boolean[WINDOW];
        boolean[] coresIdle = new boolean[WINDOW];
        long[] ioWait = new long[WINDOW];
        long[] total = new long[WINDOW];
        long[] times = new long[2];
        IoStalls stalls = IoStalls.open(); // null: only the workers' states count
        long lastWait = -1;
        long lastTotal = 0;
        int sample = 0;
        int left = extra;
        int quiet = 0;
        try {
            while (!stopped && left > 0) {
                Thread.sleep(period(quiet));
                synchronized (workers) {
                    for (int i = open.size(); i < workers.size(); i++) {
                        open.add(FileChannel.open(workers.get(i), StandardOpenOption.READ));
                    }
                }
                int running = 0;
                int onDisk = 0;
                for (FileChannel c : open) {
                    char state = state(c, buf);
                    running += state == 'R' ? 1 : 0;
                    onDisk += state == 'D' ? 1 : 0;
                }
                quiet = onDisk > 0 ? 0 : quiet + 1;
                int at = sample++ % WINDOW;
                onDiskSeen[at] = onDisk > 0;
                coresIdle[at] = running < cores;
                if (stalls != null && stalls.read(buf, times)) {
                    ioWait[at] = lastWait < 0 ? 0 : times[0] - lastWait;
                    total[at] = lastWait < 0 ? 0 : times[1] - lastTotal;
                    lastWait = times[0];
                    lastTotal = times[1];
                } else {
                    ioWait[at] = 0;
                    total[at] = 0;
                }
                if (admitMore(onDiskSeen, coresIdle, ioWait, total)) {
                    int more = Math.min(left, Math.max(1, cores));
                    left -= more;
                    added += more;
                    admitted.release(more);
                    Arrays.fill(onDiskSeen, false);
                }
            }
        } catch (IOException | InterruptedException e) {
            // No /proc: the run keeps the workers it has.
        } finally {
            for (FileChannel c : open) {
                closeQuietly(c);
            }
            if (stalls != null) {
                stalls.close();
            }
        }
    }

    /**
     * Whether to admit more workers, from the last {@link #WINDOW} samples: whether each found a worker
     * in {@code D}, whether it found fewer workers running than cores, and the time the CPUs lost
     * waiting for I/O and the time passed since the sample before it, in {@link IoStalls}' unit (0 and
     * 0 where not known). More when
     * {@value #ON_DISK_IDLE} samples found workers on the disk and cores idle, or when
     * {@value #SAMPLES} found workers on the disk and the CPUs waited for I/O for at least
     * {@value #IO_WAIT_PERCENT}% of the window's time.
     */
    static boolean admitMore(boolean[] onDisk, boolean[] coresIdle, long[] ioWait, long[] total) {
        int seen = 0;
        int seenIdle = 0;
        long waitSum = 0;
        long totalSum = 0;
        for (int i = 0; i < onDisk.length; i++) {
            seen += onDisk[i] ? 1 : 0;
            seenIdle += onDisk[i] && coresIdle[i] ? 1 : 0;
            waitSum += ioWait[i];
            totalSum += total[i];
        }
        return seenIdle >= ON_DISK_IDLE
                || seen >= SAMPLES && totalSum > 0 && waitSum * 100 >= IO_WAIT_PERCENT * totalSum;
    }

    private static void closeQuietly(FileChannel c) {
        try {
            c.close();
        } catch (IOException e) {
            // Read only.
        }
    }

    /** Milliseconds until the next sample after {@code quiet} samples in a row found no worker on the disk. */
    static long period(int quiet) {
        return (long) PERIOD_MS << Math.min(SLOWEST, quiet / QUIET_STEP);
    }

    /** The state letter of one thread's {@code stat} line (after its name, which may hold ") "). */
    static char state(FileChannel c, ByteBuffer buf) {
        buf.clear();
        int n;
        try {
            n = c.read(buf, 0);
        } catch (IOException e) {
            return '?'; // a worker that ended (idle long enough)
        }
        for (int i = n - 1; i > 0; i--) {
            if (buf.get(i) == ')') {
                return i + 2 < n ? (char) buf.get(i + 2) : '?';
            }
        }
        return '?';
    }
}
