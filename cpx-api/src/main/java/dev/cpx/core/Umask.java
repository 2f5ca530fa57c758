package dev.cpx.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The process umask. Java has no call for it; Linux shows it in {@code /proc/self/status}. */
public final class Umask {

    private static final int VALUE = read();

    private Umask() {
    }

    /** The umask, 022 when it cannot be read. */
    public static int get() {
        return VALUE;
    }

    private static int read() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("Umask:")) {
                    return Integer.parseInt(line.substring(6).trim(), 8);
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through to the usual default
        }
        return 022;
    }
}
