package dev.cpx.core.copy;

import dev.cpx.spi.support.OpenFilesLimit;
import java.util.concurrent.atomic.AtomicInteger;

/** {@link InsertionOrder} for one directory's entries: names them strictly in index order. */
public final class SequencedInsertions implements InsertionOrder {

    /**
     * Above this many files waiting with open descriptors (run-wide), files are named out of turn:
     * a quarter of what the process's descriptor limit leaves beside the JVM's own, at most 4096
     * ({@link OpenFilesLimit.Shares#waitingFiles}). Each worker (16 or more of them at most) may hold a chunk of 64 waiting
     * files, so a fixed 256 could be crossed by a large directory on a machine with more cores,
     * naming files out of turn; and under a low limit 256 waiting files were more than it allows.
     */
    static final int MAX_WAITING_DESCRIPTORS = OpenFilesLimit.shares().waitingFiles();

    private static final Runnable SKIP = () -> { };

    /**
     * How far ahead of the turn an entry may be for {@link #awaitTurn} to wait for it: workers taking
     * the entries one after the other are about one entry apart each; further ahead, the turn is
     * held up by something slower than a create.
     */
    static final int NEAR = 8;
    /**
     * How long {@link #awaitTurn} waits at most, in spins ({@code Thread.onSpinWait}: tens of
     * microseconds, a few creates). On a directory of 100,000 files shared by two workers (tmpfs)
     * 200 spins left 4% of the files to be named out of their turn, 400 2%, 100 29%.
     */
    static final int SPINS = 1000;

    private final Runnable[] waiting;
    private final boolean[] holds;
    private final AtomicInteger waitingDescriptors;
    /** {@link #SPINS}, or 0 where a worker waiting could keep the one in turn off a CPU. */
    private final int spins;
    /** The entries before it are named or skipped. Written under the lock, read without it by {@link #inTurn}. */
    private volatile int next;
    /** Whether a thread is naming the waiting entries in turn (under the lock). */
    private boolean draining;

    /**
     * @param awaits whether {@link #awaitTurn} may wait: only where every worker sharing the directory
     *     has a CPU of its own (tmpfs: one worker per CPU; elsewhere as many share it as there are
     *     CPUs until the run waits on the disk); with more workers than CPUs, the one whose turn it is
     *     may be the one kept waiting for a CPU by a spinning worker.
     */
    public SequencedInsertions(int size, AtomicInteger waitingDescriptors, boolean awaits) {
        this.waiting = new Runnable[size];
        this.holds = new boolean[size];
        this.waitingDescriptors = waitingDescriptors;
        this.spins = awaits ? SPINS : 0;
    }

    /** Without {@link #awaitTurn}'s wait. */
    public SequencedInsertions(int size, AtomicInteger waitingDescriptors) {
        this(size, waitingDescriptors, false);
    }

    @Override
    public void insert(int index, Runnable naming, boolean holdsDescriptor) {
        boolean outOfTurn = false;
        Runnable first;
        synchronized (this) {
            if (index == next || !holdsDescriptor || waitingDescriptors.get() < MAX_WAITING_DESCRIPTORS) {
                if (holdsDescriptor && index != next) {
                    waitingDescriptors.incrementAndGet();
                    holds[index] = true;
                }
                waiting[index] = naming;
            } else {
                waiting[index] = SKIP;
                outOfTurn = true;
            }
            first = startDraining();
        }
        drainFrom(first);
        if (outOfTurn) {
            // Too many open descriptors waiting: name this one now, out of turn.
            naming.run();
        }
    }

    @Override
    public void skip(int index) {
        Runnable first;
        synchronized (this) {
            waiting[index] = SKIP;
            first = startDraining();
        }
        drainFrom(first);
    }

    @Override
    public boolean inTurn(int index) {
        return next == index;
    }

    @Override
    public boolean awaitTurn(int index) {
        int behind = index - next;
        if (behind <= 0 || behind > NEAR) {
            return behind == 0;
        }
        for (int k = spins; k > 0; k--) {
            Thread.onSpinWait();
            if (next == index) {
                return true;
            }
        }
        return false;
    }

    /**
     * Under the lock: the entry this thread is to name first, where no other thread is naming and
     * the entry in turn waits (this thread then names the waiting entries, see {@link #drainFrom});
     * else null.
     */
    private Runnable startDraining() {
        if (draining) {
            return null;
        }
        Runnable r = take();
        draining = r != null;
        return r;
    }

    /** Under the lock: the entry in turn, taken, if it waits; else null. */
    private Runnable take() {
        int n = next;
        if (n >= waiting.length || waiting[n] == null) {
            return null;
        }
        Runnable r = waiting[n];
        waiting[n] = SKIP;
        if (holds[n]) {
            holds[n] = false;
            waitingDescriptors.decrementAndGet();
        }
        return r;
    }

    /**
     * Names {@code first} and the entries that wait in turn after it, outside the lock: one thread
     * at a time (another that inserts meanwhile leaves its entry to it and goes on copying, where it
     * used to wait for the lock while the first named a run of files). {@link #next} advances only
     * once a naming is done; a naming that throws ends the run of them (the next insert or skip
     * takes it up).
     */
    private void drainFrom(Runnable first) {
        Runnable r = first;
        while (r != null) {
            boolean named = false;
            try {
                r.run();
                named = true;
            } finally {
                synchronized (this) {
                    next++;
                    r = named ? take() : null;
                    draining = r != null;
                }
            }
        }
    }
}
