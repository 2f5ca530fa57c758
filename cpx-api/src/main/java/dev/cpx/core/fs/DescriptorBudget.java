package dev.cpx.core.fs;

import dev.cpx.spi.support.OpenFilesLimit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many directory pairs ({@link DirectoryPair}: two descriptors each) the process may hold open
 * under its descriptor limit, and how many it holds: where more are open, idle ones are parked. The
 * count is the process's, as descriptors are.
 */
public final class DescriptorBudget {

    /** Pairs open now, in the whole process. */
    private static final AtomicInteger OPEN = new AtomicInteger();
    /** Up to this many open pairs none is parked, whatever the limit. */
    private static final int FEW = 2;
    /** How many pairs may be open before idle ones are parked; 0 until read. */
    private static volatile int budget;

    private DescriptorBudget() {
    }

    /** A pair was opened (or opened again). */
    static void opened() {
        OPEN.incrementAndGet();
    }

    /** A pair was closed (or parked). */
    static void closed() {
        OPEN.decrementAndGet();
    }

    /** Whether more pairs are open than the descriptor limit leaves room for. */
    static boolean exceeded() {
        int open = OPEN.get();
        return open > FEW && open > budget();
    }

    /**
     * Whether {@code pairs} pairs may be open at once under the descriptor limit: how deep a walk that
     * holds every directory on its way in use (not parked: GNU's order, each directory's
     * subdirectories copied inside its listing) may go.
     */
    public static boolean roomFor(int pairs) {
        return pairs <= FEW || pairs <= budget();
    }

    private static int budget() {
        int b = budget;
        if (b == 0) {
            budget = b = budgetOf(OpenFilesLimit.soft());
        }
        return b;
    }

    /** Descriptors a worker may hold at once: the directory it lists and its copy, a file and its copy, one more. */
    private static final int PER_WORKER = 6;

    /**
     * How many workers may run at once under the descriptor limit, whatever {@code -j} says: a worker
     * holds a directory pair, a file and its copy, and may open a parked directory again. Only under a
     * low limit is this fewer than cpx would start (64: 5; 48: 2; 32: 1).
     */
    public static int mostWorkers() {
        return workersFor(OpenFilesLimit.soft());
    }

    /** {@link #mostWorkers()} under a limit of {@code limit} descriptors: what is left beside the JVM's own, shared out; at least one. */
    static int workersFor(long limit) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE / 2, OpenFilesLimit.spare(limit) / PER_WORKER));
    }

    /**
     * How many pairs may be open under a limit of {@code limit} descriptors: a quarter of what is left
     * beside the JVM's own (its jars, its runtime), and at least two. The workers' files
     * ({@link #mostWorkers}), the files waiting for their turn to be named (a quarter:
     * {@code core.copy.SequencedInsertions}) and the closes put off (an eighth:
     * {@link dev.cpx.spi.support.CloseBatch}, made at once where an open meets the limit) take the rest.
     */
    static int budgetOf(long limit) {
        return (int) Math.max(2, Math.min(Integer.MAX_VALUE / 2, OpenFilesLimit.spare(limit) / 4));
    }
}
