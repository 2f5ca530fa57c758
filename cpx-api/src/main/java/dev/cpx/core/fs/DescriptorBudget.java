package dev.cpx.core.fs;

import dev.cpx.spi.support.OpenFilesLimit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many directory pairs ({@link DirectoryPair}: two descriptors each) the process may hold open
 * under its descriptor limit ({@link OpenFilesLimit.Shares#pairs}), and how many it holds: where more
 * are open, idle ones are parked. The count is the process's, as descriptors are.
 */
public final class DescriptorBudget {

    /** Pairs open now, in the whole process. */
    private static final AtomicInteger OPEN = new AtomicInteger();

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
        return open > budget();
    }

    /**
     * Whether {@code pairs} pairs may be open at once under the descriptor limit: how deep a walk that
     * holds every directory on its way in use (not parked: GNU's order, each directory's
     * subdirectories copied inside its listing) may go.
     */
    public static boolean roomFor(int pairs) {
        return pairs <= budget();
    }

    private static int budget() {
        return OpenFilesLimit.shares().pairs();
    }
}
