package dev.cpx.spi.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The process's soft limit on open descriptors ({@code RLIMIT_NOFILE}), read once from
 * {@code /proc/self/limits} (no system call to name, no engine needed), and its {@link Shares}: how
 * many descriptors each part of a run may keep open at once (directories walked, files waiting for
 * their turn, closes put off, workers' files), shared out in one place so that together they stay
 * within the limit. The JVM raises the soft limit to the hard one as it starts, so this is the hard
 * limit of the shell that started cpx ({@code ulimit -n}), usually large.
 *
 * @since 0.5.0
 */
public final class OpenFilesLimit {

    /** The descriptors counted as the JVM's own, beside what a run opens: its jars, its runtime, standard streams. */
    public static final int JVM_OWN = 32;

    /** Taken as the limit where {@code /proc/self/limits} cannot be read: the usual default soft limit. */
    static final long UNKNOWN = 1024;

    /** The limit, once read; 0 until then. */
    private static volatile long soft;
    /** {@link #shares()}, once made. */
    private static volatile Shares shares;

    private OpenFilesLimit() {
    }

    /** The soft limit ({@link Long#MAX_VALUE} where it is unlimited, {@value #UNKNOWN} where it cannot be read). */
    public static long soft() {
        long l = soft;
        if (l == 0) {
            soft = l = read();
        }
        return l;
    }

    /** Descriptors left beyond the JVM's own under {@code limit} (at least 0). */
    public static long spare(long limit) {
        return Math.max(0, limit - JVM_OWN);
    }

    /** The shares of this process's limit ({@link #soft()}). */
    public static Shares shares() {
        Shares s = shares;
        if (s == null) {
            shares = s = Shares.of(soft());
        }
        return s;
    }

    /**
     * What each part of a run may keep open at once, out of the descriptors a limit leaves beside the
     * JVM's own ({@link #spare}): three eighths to directory pairs (two descriptors each), a quarter to
     * files waiting for their turn to be named, an eighth to closes put off, a quarter to the workers'
     * files (a file and its copy each). Together never more than the spare descriptors where they
     * are 32 or more (a limit of 64 or more); below, the fewest each part needs to work at all (two
     * pairs, four closes, one worker) come on top. Under a large limit each part has a ceiling of its
     * own instead.
     *
     * @param pairs        directory pairs open before idle ones are parked ({@code core.fs.DescriptorBudget})
     * @param waitingFiles files made and not named yet that may wait holding their descriptor
     *                     ({@code core.copy.SequencedInsertions}; beyond them, files are named out of turn)
     * @param closes       closes a {@link CloseBatch} puts off
     * @param workers      workers that may copy at once, whatever {@code -j} says
     */
    public record Shares(int pairs, int waitingFiles, int closes, int workers) {

        /** The fewest pairs kept open, however low the limit. */
        static final int FEWEST_PAIRS = 2;
        /** The fewest closes a batch puts off, however low the limit. */
        static final int FEWEST_CLOSES = 4;
        /** The most closes a batch puts off: {@link CloseBatch#SIZE}. */
        static final int MOST_CLOSES = CloseBatch.SIZE;
        /** The most files waiting for their turn. */
        static final int MOST_WAITING = 4096;

        /** The shares of a limit of {@code limit} descriptors. */
        public static Shares of(long limit) {
            long spare = spare(limit);
            return new Shares(
                    clamp(spare * 3 / 16, FEWEST_PAIRS, Integer.MAX_VALUE / 2),
                    clamp(spare / 4, 0, MOST_WAITING),
                    clamp(spare / 8, FEWEST_CLOSES, MOST_CLOSES),
                    clamp(spare / 8, 1, Integer.MAX_VALUE / 2));
        }

        /** Descriptors the shares hold when each is full. */
        public long descriptors() {
            return 2L * pairs + waitingFiles + closes + 2L * workers;
        }

        private static int clamp(long value, int least, int most) {
            return (int) Math.max(least, Math.min(most, value));
        }
    }

    private static final byte[] MAX_OPEN_FILES = "Max open files".getBytes(StandardCharsets.US_ASCII);

    private static long read() {
        byte[] limits;
        try {
            limits = Files.readAllBytes(Path.of("/proc/self/limits"));
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
        return parse(limits);
    }

    /** The soft limit in the text of {@code /proc/self/limits}: {@link Long#MAX_VALUE} where unlimited, {@value #UNKNOWN} where it has none. */
    static long parse(byte[] limits) {
        for (int line = 0; line < limits.length; ) {
            if (Arrays.equals(limits, line, Math.min(limits.length, line + MAX_OPEN_FILES.length),
                    MAX_OPEN_FILES, 0, MAX_OPEN_FILES.length)) {
                // "Max open files            1024                 1048576              files": the soft limit first.
                int i = line + MAX_OPEN_FILES.length;
                while (i < limits.length && limits[i] == ' ') {
                    i++;
                }
                long value = 0;
                int digits = 0;
                for (; i < limits.length && limits[i] >= '0' && limits[i] <= '9' && digits < 18; i++, digits++) {
                    value = value * 10 + (limits[i] - '0');
                }
                return digits == 0 ? Long.MAX_VALUE : value;
            }
            while (line < limits.length && limits[line] != '\n') {
                line++;
            }
            line++;
        }
        return UNKNOWN;
    }
}
