package dev.cpx.api;

import java.time.Duration;

/**
 * Totals of a finished (or interrupted) copy.
 *
 * @param files regular files copied
 * @param directories directories created or merged
 * @param symlinks symbolic links created
 * @param specials special files created
 * @param bytes data bytes copied
 * @param skipped entries skipped (excluded, not overwritten, already complete)
 * @param failed entries or operands that failed
 * @param elapsed wall-clock time
 * @param cancelled whether the copy was cancelled before it finished
 */
public record CopySummary(long files, long directories, long symlinks, long specials, long bytes, long skipped,
        long failed, Duration elapsed, boolean cancelled) {

    /** True when nothing failed and the copy was not cancelled. */
    public boolean succeeded() {
        return failed == 0 && !cancelled;
    }

    /** Bytes per second over the elapsed time. */
    public double bytesPerSecond() {
        double seconds = elapsed.toNanos() / 1e9;
        return seconds <= 0 ? 0 : bytes / seconds;
    }
}
