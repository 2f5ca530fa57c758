package dev.cpx.core.walk;

import dev.cpx.core.run.Outcomes;
import dev.cpx.core.run.Task;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The writes of small file operands, handed on once each is decided, so that the thread deciding the
 * operands in their order ({@link OperandTask}) goes on to the next while another worker writes.
 * One task per file would wake a worker per file (measured: the CPU of a copy of 5,000 operands up by
 * a fifth, its time unchanged); here writes queue up, and one writer takes them as long as there are
 * any, started once {@link #BATCH} wait. Where {@link #LIMIT} wait (each holds its open source), the
 * deciding thread writes one itself before going on, and it writes what is left when its operands stop
 * ({@link #drain}). Each write holds its operand's task open until it has run.
 */
final class HandedOn {

    /** Writes waiting before a writer is started. */
    static final int BATCH = 8;
    /** Writes waiting at most: each holds an open file. */
    static final int LIMIT = 64;

    private final Outcomes outcomes;
    private final ConcurrentLinkedQueue<Write> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicBoolean writing = new AtomicBoolean();

    private record Write(Task operand, Runnable work, Path subject) {
    }

    HandedOn(Outcomes outcomes) {
        this.outcomes = outcomes;
    }

    /** Queues {@code work} (of the file {@code subject}); {@code operand} completes only once it has run. */
    void handOn(Task operand, Runnable work, Path subject) {
        operand.addToPendingCount(1);
        queue.add(new Write(operand, work, subject));
        int n = waiting.incrementAndGet();
        if (n >= LIMIT) {
            runOne();
        } else if (n >= BATCH && writing.compareAndSet(false, true)) {
            new Writer().fork();
        }
    }

    /** Runs every write waiting, here. */
    void drain() {
        while (runOne()) {
            // the next
        }
    }

    private boolean runOne() {
        Write w = queue.poll();
        if (w == null) {
            return false;
        }
        waiting.decrementAndGet();
        try {
            w.work().run();
        } catch (Throwable t) {
            outcomes.internalError(w.subject(), t);
        } finally {
            w.operand().tryComplete();
        }
        return true;
    }

    /** Takes writes while there are any. */
    private final class Writer extends RecursiveAction {
        @Override
        protected void compute() {
            do {
                drain();
                writing.set(false);
            } while (!queue.isEmpty() && writing.compareAndSet(false, true));
        }
    }
}
