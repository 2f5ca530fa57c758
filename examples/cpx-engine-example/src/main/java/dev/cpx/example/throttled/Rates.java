package dev.cpx.example.throttled;

import java.util.Locale;

/** Byte rates written as people write them: {@code 512K}, {@code 20M}, {@code 1G} (powers of 1024), or plain bytes. */
final class Rates {

    private static final String UNITS = "KMGT";

    private Rates() {
    }

    /** Bytes per second of {@code text}; at least 1. */
    static long parse(String text) {
        String s = text.strip().toUpperCase(Locale.ROOT);
        if (s.endsWith("/S")) {
            s = s.substring(0, s.length() - 2);
        }
        if (s.endsWith("IB")) {
            s = s.substring(0, s.length() - 2);
        } else if (s.endsWith("B")) {
            s = s.substring(0, s.length() - 1);
        }
        int shift = 0;
        if (!s.isEmpty() && UNITS.indexOf(s.charAt(s.length() - 1)) >= 0) {
            shift = 10 * (UNITS.indexOf(s.charAt(s.length() - 1)) + 1);
            s = s.substring(0, s.length() - 1);
        }
        long n;
        try {
            n = Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a rate (examples: 512K, 20M, 1G)");
        }
        if (n < 1 || n > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException("'" + text + "' is out of range (1 byte to 8 EiB per second)");
        }
        return n << shift;
    }

    /** The shortest exact form: {@code 20M} for 20 MiB, {@code 1500} for 1500 bytes. */
    static String format(long bytes) {
        long n = bytes;
        int unit = -1;
        while (unit < UNITS.length() - 1 && n % 1024 == 0 && n != 0) {
            n /= 1024;
            unit++;
        }
        return n + (unit < 0 ? "" : String.valueOf(UNITS.charAt(unit)));
    }
}
