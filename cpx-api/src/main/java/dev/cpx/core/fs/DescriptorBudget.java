package dev.cpx.core.fs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many directory pairs ({@link DirectoryPair}: two descriptors each) the process may hold open
 * under its descriptor limit, and how many it holds: where more are open, idle ones are parked. The
 * count is the process's, as descriptors are.
 */
public final class DescriptorBudget {

    /** Pairs open now, in the whole process. */
    private static final AtomicInteger OPEN = new AtomicInteger();
    /** Up to this many open pairs none is parked, and the limit is not read. */
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
            budget = b = budgetOf(openFilesLimit());
        }
        return b;
    }

    /**
     * How many pairs may be open under a limit of {@code limit} descriptors: a quarter of what is left
     * beside the JVM's own (its jars, its runtime), and at least two. The files being copied and the
     * closes put off ({@link dev.cpx.spi.support.CloseBatch}, made at once where an open meets the
     * limit) take the rest.
     */
    static int budgetOf(long limit) {
        return (int) Math.max(2, Math.min(Integer.MAX_VALUE / 2, (limit - 32) / 4));
    }

    private static final byte[] MAX_OPEN_FILES = "Max open files".getBytes(StandardCharsets.US_ASCII);

    /** The soft limit on open descriptors ({@code /proc/self/limits}); unlimited where it cannot be read. */
    private static long openFilesLimit() {
        byte[] limits;
        try {
            limits = Files.readAllBytes(Path.of("/proc/self/limits"));
        } catch (IOException | RuntimeException e) {
            return Long.MAX_VALUE;
        }
        for (int line = 0; line < limits.length; ) {
            if (Arrays.equals(limits, line, Math.min(limits.length, line + MAX_OPEN_FILES.length),
                    MAX_OPEN_FILES, 0, MAX_OPEN_FILES.length)) {
                // "Max open files            1024                 1048576              files": the soft limit first.
                int i = line + MAX_OPEN_FILES.length;
                while (i < limits.length && limits[i] == ' ') {
                    i++;
                }
                long soft = 0;
                int digits = 0;
                for (; i < limits.length && limits[i] >= '0' && limits[i] <= '9' && digits < 18; i++, digits++) {
                    soft = soft * 10 + (limits[i] - '0');
                }
                return digits == 0 ? Long.MAX_VALUE : soft;
            }
            while (line < limits.length && limits[line] != '\n') {
                line++;
            }
            line++;
        }
        return Long.MAX_VALUE;
    }
}
