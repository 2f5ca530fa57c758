package dev.cpx.spi.support;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Descriptors closed in batches: {@link #add} puts a close off, and once {@link #SIZE} are waiting
 * (fewer under a low descriptor limit: {@link OpenFilesLimit.Shares#closes}) they are closed together, each run of
 * consecutive numbers by one {@code close_range(first, last, 0)} (Linux 5.9; the number 436 on
 * every architecture), the rest one by one. The kernel gives out the lowest free number, so the
 * ones put off lie side by side and many of those system calls go. Only for descriptors whose close
 * nobody waits for (a regular file or a directory, not a FIFO's writer) and can report nothing (a
 * file only read: a written one's close may report a write error, on NFS, CIFS or FUSE file
 * systems). {@link #flush} closes what waits, at a run's end. Thread safe.
 *
 * @since 0.4.0
 */
public final class CloseBatch {

    /** {@code close_range}'s number: the same on every architecture (numbers from 424 on are shared). */
    public static final long CLOSE_RANGE = 436;

    /**
     * How many closes wait at most: that many more descriptors open (the JVM raises the soft limit to
     * the hard one; an open that meets the limit makes them first, {@link #flush}). 256 rather than
     * 64: the two workers' and the directories' descriptors interleave, so a batch's numbers come in
     * runs of ~9 at 64 and ~27 at 256; on the Linux tree (tmpfs) close_range and close calls went
     * from 27,500 to 9,700, -32.6 +- 8.8 ms (ab.py --runs 10).
     */
    public static final int SIZE = 256;

    /** The engine's two calls. */
    public interface Closer {
        /** {@code close(fd)}, errors ignored. */
        void close(int fd);

        /** {@code close_range(first, last, 0)}: 0, or the errno of its failure. */
        int closeRange(int first, int last);
    }

    private final Closer closer;
    /**
     * A lock rather than a monitor: the workers share it, and once two met in it the monitor would be
     * inflated, and every later entry a call into the VM where C1 compiles (the lock's CAS is compiled in).
     */
    private final ReentrantLock lock = new ReentrantLock();
    /**
     * Held while a batch is closed, for {@link #makeRoom}: taken before {@link #lock} is let go, so
     * whoever finds the batch empty then also finds the closes of the one taken before in progress.
     */
    private final ReentrantLock closing = new ReentrantLock();
    /** How many closes wait at most in this batch. */
    private final int size;
    private int[] waiting;
    private int count;
    /** Whether to try close_range (false once the kernel said it has none). */
    private volatile boolean ranges = true;

    /**
     * A batch of the closes the process's descriptor limit leaves room for ({@link OpenFilesLimit.Shares#closes}):
     * {@link #SIZE}, or under a low limit fewer, so that the closes put off never fill the table
     * (every open not made by an engine, a class loaded from a directory, a file the JDK reads, would
     * fail meanwhile).
     */
    public CloseBatch(Closer closer) {
        this(closer, OpenFilesLimit.shares().closes());
    }

    CloseBatch(Closer closer, int size) {
        this.closer = closer;
        this.size = size;
        this.waiting = new int[size];
    }

    /** Puts {@code fd}'s close off: it is closed with the others, at the latest by {@link #flush}. */
    public void add(int fd) {
        int[] full;
        lock.lock();
        try {
            waiting[count++] = fd;
            if (count < size) {
                return;
            }
            full = waiting;
            waiting = new int[size];
            count = 0;
            closing.lock();
        } finally {
            lock.unlock();
        }
        close(full, size);
    }

    /** Closes every descriptor put off. */
    public void flush() {
        flushed();
    }

    /** {@link #flush}; true when there was a descriptor to close. */
    private boolean flushed() {
        int[] all;
        int n;
        lock.lock();
        try {
            if (count == 0) {
                return false;
            }
            all = waiting;
            n = count;
            waiting = new int[size];
            count = 0;
            closing.lock();
        } finally {
            lock.unlock();
        }
        close(all, n);
        return true;
    }

    /**
     * Where an open failed with {@code EMFILE} for the {@code tries}-th time (from 0): closes what
     * waits, or waits for the closes another thread is making, or else (the other workers hold the
     * descriptors, for the file each is copying) waits a millisecond for them; true while an open
     * tried again may succeed, false after {@link #ROOM_TRIES} tries. The engines open again while it
     * says so, so a low descriptor limit fails a copy no sooner than without the batch: only where
     * descriptors stay held (directories, the JVM's own) for longer.
     */
    public boolean makeRoom(int tries) {
        if (tries >= ROOM_TRIES) {
            return false;
        }
        if (flushed()) {
            return true;
        }
        if (closing.tryLock()) {
            closing.unlock();
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        } else {
            closing.lock();
            closing.unlock();
        }
        return true;
    }

    /** How many times {@link #makeRoom} lets an open be tried again. */
    static final int ROOM_TRIES = 64;

    /** Closes a batch taken with {@link #closing} locked (before {@link #lock} was let go), and unlocks it. */
    private void close(int[] fds, int n) {
        try {
            closeSorted(fds, n);
        } finally {
            closing.unlock();
        }
    }

    private void closeSorted(int[] fds, int n) {
        sort(fds, n);
        for (int i = 0; i < n;) {
            int j = i;
            while (j + 1 < n && fds[j + 1] == fds[j] + 1) {
                j++;
            }
            if (j == i || !closeRange(fds[i], fds[j])) {
                for (int k = i; k <= j; k++) {
                    closer.close(fds[k]);
                }
            }
            i = j + 1;
        }
    }

    /**
     * Sorts the first {@code n}, by insertion: at most {@link #SIZE}, and nearly in order already (the
     * lowest free numbers, given out in turn). Not {@code Arrays.sort}, whose general sort the quick
     * compiler would compile (some 1,700 bytes of bytecode) for this alone, early in every copy.
     */
    static void sort(int[] a, int n) {
        for (int i = 1; i < n; i++) {
            int v = a[i];
            int j = i - 1;
            while (j >= 0 && a[j] > v) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = v;
        }
    }

    private boolean closeRange(int first, int last) {
        if (!ranges) {
            return false;
        }
        int errno = closer.closeRange(first, last);
        if (errno == 0) {
            return true;
        }
        // ENOSYS: before Linux 5.9, or a seccomp filter; EINVAL should not happen (no flags given).
        ranges = false;
        return false;
    }
}
