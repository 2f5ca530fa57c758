package dev.cpx.spi.support;

import java.nio.file.attribute.FileTime;
import java.time.Instant;

/**
 * The {@code struct timespec[2]} that {@code utimensat} takes, as four {@code long}s (64-bit Linux):
 * access seconds and nanoseconds, then modification's; a missing time is {@code UTIME_OMIT}.
 *
 * @since 0.2.0
 */
public final class Timespecs {

    /** {@code tv_nsec} value that leaves a time as it is. */
    public static final long UTIME_OMIT = (1L << 30) - 2;

    private Timespecs() {
    }

    /** {@code {atime, mtime}} as {@code utimensat} reads them. */
    public static long[] of(FileTime lastAccess, FileTime lastModified) {
        long[] times = new long[4];
        put(times, 0, lastAccess);
        put(times, 2, lastModified);
        return times;
    }

    /** Writes {@code time} (seconds, then nanoseconds 0..999999999) at {@code index}. */
    private static void put(long[] times, int index, FileTime time) {
        if (time == null) {
            times[index + 1] = UTIME_OMIT;
            return;
        }
        Instant instant = time.toInstant();
        times[index] = instant.getEpochSecond();
        times[index + 1] = instant.getNano();
    }
}
