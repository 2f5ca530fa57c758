package dev.cpx.spi.support;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Descriptors closed in batches: {@link #add} puts a close off, and once {@link #SIZE} are
 * waiting they are closed together, each run of consecutive numbers by one
 * {@code close_range(first, last, 0)} (Linux 5.9; the number 436 on every architecture), the rest
 * one by one. The kernel gives out the lowest free number, so the ones put off lie side by side and
 * many of those system calls go. Only for descriptors whose close nobody waits for (a regular file
 * or a directory, not a FIFO's writer) and can report nothing (a file only read: a written one's
 * close may report a write error, on NFS, CIFS or FUSE file systems). {@link #flush} closes what
 * waits, at a run's end. Thread safe.
 *
 * @since 0.4.0
 */
public final class CloseBatch {

    /** {@code close_range}'s number: the same on every architecture (numbers from 424 on are shared). */
    public static final long CLOSE_RANGE = 436;

    /** How many closes wait at most: that many more descriptors open (the JVM raises the soft limit to the hard one). */
    public static final int SIZE = 64;

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
    private int[] waiting = new int[SIZE];
    private int count;
    /** Whether to try close_range (false once the kernel said it has none). */
    private volatile boolean ranges = true;

    public CloseBatch(Closer closer) {
        this.closer = closer;
    }

    /** Puts {@code fd}'s close off: it is closed with the others, at the latest by {@link #flush}. */
    public void add(int fd) {
        int[] full;
        lock.lock();
        try {
            waiting[count++] = fd;
            if (count < SIZE) {
                return;
            }
            full = waiting;
            waiting = new int[SIZE];
            count = 0;
        } finally {
            lock.unlock();
        }
        close(full, SIZE);
    }

    /** Closes every descriptor put off. */
    public void flush() {
        int[] all;
        int n;
        lock.lock();
        try {
            if (count == 0) {
                return;
            }
            all = waiting;
            n = count;
            waiting = new int[SIZE];
            count = 0;
        } finally {
            lock.unlock();
        }
        close(all, n);
    }

    private void close(int[] fds, int n) {
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
