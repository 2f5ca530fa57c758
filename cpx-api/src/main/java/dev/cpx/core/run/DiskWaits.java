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
 * reads each running worker's scheduling state ({@code /proc/self/task/TID/stat}) every
 * {@value #PERIOD_MS} ms; when {@value #SAMPLES} of the last {@value #WINDOW} samples found cores
 * left idle (fewer workers running than cores) while workers were in uninterruptible sleep
 * ({@code D}: a read from a cold cache, mostly), it admits one more worker per core, up to
 * {@code extra} more in all. More reads are then in flight where the disk is what they wait for, and
 * never more workers than {@code jobs} where the CPU is (a warm cache or tmpfs: no worker is seen in
 * {@code D}). Where {@code /proc} cannot be read, the run keeps its workers. While no worker is seen on
 * the disk it looks less often, down to every {@value #PERIOD_MS}{@code  << }{@value #SLOWEST} ms
 * ({@link #period}): on a warm copy it never finds one (no gain measured in wall or CPU time; kept as
 * the cheaper watch).
 */
final class DiskWaits {

    static final int PERIOD_MS = 20;
    /** The period doubles after each {@value #QUIET_STEP} samples in a row finding no worker on the disk, this many times at most. */
    static final int SLOWEST = 3;
    static final int QUIET_STEP = 25;
    /** Samples that must each find cores idle while workers wait on the disk (of the last {@link #WINDOW}). */
    static final int SAMPLES = 3;
    static final int WINDOW = 5;

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
        boolean[] seen = new boolean[WINDOW];
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
                // Cores left idle while workers wait on the disk.
                seen[sample++ % WINDOW] = onDisk > 0 && running < cores;
                int hits = 0;
                for (boolean s : seen) {
                    hits += s ? 1 : 0;
                }
                if (hits >= SAMPLES) {
                    int more = Math.min(left, Math.max(1, cores));
                    left -= more;
                    added += more;
                    admitted.release(more);
                    Arrays.fill(seen, false);
                }
            }
        } catch (IOException | InterruptedException e) {
            // No /proc: the run keeps the workers it has.
        } finally {
            for (FileChannel c : open) {
                try {
                    c.close();
                } catch (IOException e) {
                    // Read only.
                }
            }
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
