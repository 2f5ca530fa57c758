package dev.cpx.cli;

import java.time.Duration;
import java.util.Locale;

/** Numbers for people: sizes in binary units (KiB, MiB, ...), rates, durations, counted nouns. */
final class Units {

    private static final String[] SIZES = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private Units() {
    }

    /** {@code 512 B}, {@code 12.5 KiB}, {@code 350 MiB}, {@code 1.2 GiB}: three significant digits at most. */
    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        double v = n;
        int unit = 0;
        while (v >= 1024 && unit < SIZES.length - 1) {
            v /= 1024;
            unit++;
        }
        if (v >= 1023.95) {
            // Rounding would print 1024.0: step up instead.
            v /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, v < 99.95 ? "%.1f %s" : "%.0f %s", v, SIZES[unit]);
    }

    /** Bytes per second, e.g. {@code 350 MiB/s}. */
    static String rate(double bytesPerSecond) {
        return bytes(Math.round(Math.max(0, bytesPerSecond))) + "/s";
    }

    /** A duration in words: {@code 0.04 s}, {@code 3.4 s}, {@code 2 min 5 s}, {@code 1 h 2 min}. */
    static String duration(Duration d) {
        double seconds = d.toNanos() / 1e9;
        if (seconds < 0.995) {
            return String.format(Locale.ROOT, "%.2f s", seconds);
        }
        if (seconds < 59.95) {
            return String.format(Locale.ROOT, "%.1f s", seconds);
        }
        long s = Math.round(seconds);
        if (s < 3600) {
            return (s / 60) + " min " + (s % 60) + " s";
        }
        return (s / 3600) + " h " + (s % 3600 / 60) + " min";
    }

    /** A clock for an estimate: {@code 0:05}, {@code 12:34}, {@code 1:02:03}. */
    static String clock(long seconds) {
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
        }
        return String.format(Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds % 3600 / 60, seconds % 60);
    }

    /** {@code 1 file}, {@code 2 files}; {@code plural} is used for every count but one. */
    static String count(long n, String singular, String plural) {
        return n + " " + (n == 1 ? singular : plural);
    }
}
