package dev.cpx.core.copy;

import java.util.concurrent.atomic.AtomicInteger;

/** {@link InsertionOrder} for one directory's entries: names them strictly in index order. */
public final class SequencedInsertions implements InsertionOrder {

    /** Above this many files waiting with open descriptors (run-wide), files are named out of turn. */
    static final int MAX_WAITING_DESCRIPTORS = 256;

    private static final Runnable SKIP = () -> { };

    private final Runnable[] waiting;
    private final boolean[] holds;
    private final AtomicInteger waitingDescriptors;
    private int next;

    public SequencedInsertions(int size, AtomicInteger waitingDescriptors) {
        this.waiting = new Runnable[size];
        this.holds = new boolean[size];
        this.waitingDescriptors = waitingDescriptors;
    }

    @Override
    public void insert(int index, Runnable naming, boolean holdsDescriptor) {
        synchronized (this) {
            if (index == next || !holdsDescriptor || waitingDescriptors.get() < MAX_WAITING_DESCRIPTORS) {
                if (holdsDescriptor && index != next) {
                    waitingDescriptors.incrementAndGet();
                    holds[index] = true;
                }
                waiting[index] = naming;
                drain();
                return;
            }
            waiting[index] = SKIP;
            drain();
        }
        // Too many open descriptors waiting: name this one now, out of turn.
        naming.run();
    }

    @Override
    public void skip(int index) {
        synchronized (this) {
            waiting[index] = SKIP;
            drain();
        }
    }

    private void drain() {
        while (next < waiting.length && waiting[next] != null) {
            Runnable r = waiting[next];
            waiting[next] = SKIP;
            if (holds[next]) {
                holds[next] = false;
                waitingDescriptors.decrementAndGet();
            }
            next++;
            r.run();
        }
    }
}
