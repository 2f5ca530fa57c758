package dev.cpx.spi.support;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A value per thread, as a {@link ThreadLocal}, kept in a field of the thread where the thread is a
 * {@link Carrier} (the scheduler's workers): an engine's per-thread buffers are asked for several
 * times a file, and a {@code ThreadLocal} lookup checks its weak reference with a native call where
 * the quick compiler (C1) compiles it. Other threads get a {@code ThreadLocal}'s.
 */
public final class PerThread<T> {

    /** A thread with room for {@link PerThread} values: {@link #SLOTS} of them. */
    public interface Carrier {
        /** The thread's slots, {@link #SLOTS} long: read and written by that thread only. */
        Object[] perThread();
    }

    /** How many values a {@link Carrier} keeps; those made beyond it live in a {@code ThreadLocal} on every thread. */
    public static final int SLOTS = 16;

    private static final AtomicInteger MADE = new AtomicInteger();

    private final int slot;
    private final Supplier<? extends T> initial;
    private final ThreadLocal<T> elsewhere;

    private PerThread(Supplier<? extends T> initial) {
        this.slot = MADE.getAndIncrement();
        this.initial = initial;
        this.elsewhere = ThreadLocal.withInitial(initial);
    }

    /** A value per thread, made by {@code initial} on the thread's first {@link #get}. */
    public static <T> PerThread<T> withInitial(Supplier<? extends T> initial) {
        return new PerThread<>(initial);
    }

    /** This thread's value. */
    @SuppressWarnings("unchecked")
    public T get() {
        if (Thread.currentThread() instanceof Carrier carrier && slot < SLOTS) {
            Object[] slots = carrier.perThread();
            Object value = slots[slot];
            if (value == null) {
                value = initial.get();
                slots[slot] = value;
            }
            return (T) value;
        }
        return elsewhere.get();
    }
}
