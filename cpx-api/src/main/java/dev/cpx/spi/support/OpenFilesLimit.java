package dev.cpx.spi.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The process's soft limit on open descriptors ({@code RLIMIT_NOFILE}), read once from
 * {@code /proc/self/limits} (no system call to name, no engine needed): what the descriptors a run
 * keeps open at once (directories walked, closes put off, workers' files) are fitted to. The JVM
 * raises the soft limit to the hard one as it starts, so this is the hard limit of the shell that
 * started cpx ({@code ulimit -n}), usually large.
 *
 * @since 0.5.0
 */
public final class OpenFilesLimit {

    /** The descriptors counted as the JVM's own, beside what a run opens: its jars, its runtime, standard streams. */
    public static final int JVM_OWN = 32;

    /** The limit, once read; 0 until then. */
    private static volatile long soft;

    private OpenFilesLimit() {
    }

    /** The soft limit ({@link Long#MAX_VALUE} where it cannot be read, or is unlimited). */
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

    private static final byte[] MAX_OPEN_FILES = "Max open files".getBytes(StandardCharsets.US_ASCII);

    private static long read() {
        byte[] limits;
        try {
            limits = Files.readAllBytes(Path.of("/proc/self/limits"));
        } catch (IOException | RuntimeException e) {
            return Long.MAX_VALUE;
        }
        return parse(limits);
    }

    /** The soft limit in the text of {@code /proc/self/limits}; {@link Long#MAX_VALUE} where it has none. */
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
        return Long.MAX_VALUE;
    }
}
