package dev.cpx.spi.support;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A value of each thread's own (a buffer, a scratch area for system calls), as {@link ThreadLocal}
 * keeps one, but kept in a field of cpx's worker threads ({@link Holder}) and looked up in a
 * {@link ThreadLocal} only on other threads. Why: where only the quick compiler (C1) compiles, as cpx
 * runs, {@code ThreadLocal.get} calls into the VM for every use ({@code Reference.refersTo} is not
 * compiled inline there), and the native engine's calls took it three or four times a file.
 */
public final class PerThread<T> {

    /** How many values a {@link Holder} has room for at first (cpx makes seven). */
    static final int SLOTS = 8;
    private static final AtomicInteger NEXT_SLOT = new AtomicInteger();

    private final int slot;
    private final Supplier<? extends T> initial;
    private final ThreadLocal<T> elsewhere;

    /** A value per thread, made by {@code initial} at a thread's first {@link #get}. */
    public PerThread(Supplier<? extends T> initial) {
        this.slot = NEXT_SLOT.getAndIncrement();
        this.initial = initial;
        this.elsewhere = ThreadLocal.withInitial(initial);
    }

    /** This thread's value. */
    @SuppressWarnings("unchecked")
    public T get() {
        if (Thread.currentThread() instanceof Holder h) {
            Object[] values = h.values;
            if (slot >= values.length) {
                // (Only the thread itself reads or writes its array.)
                values = java.util.Arrays.copyOf(values, Math.max(slot + 1, 2 * values.length));
                h.values = values;
            }
            Object v = values[slot];
            if (v == null) {
                v = initial.get();
                values[slot] = v;
            }
            return (T) v;
        }
        return elsewhere.get();
    }

    /** A worker thread that keeps its {@link PerThread} values in a field. */
    public abstract static class Holder extends ForkJoinWorkerThread {

        private Object[] values = new Object[SLOTS];

        protected Holder(ForkJoinPool pool) {
            super(pool);
        }
    }
}
