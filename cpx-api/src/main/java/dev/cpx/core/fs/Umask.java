package dev.cpx.core.fs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the process is allowed, read once from {@code /proc/self/status} (Java has no call for
 * either): the umask, and whether the effective user is root.
 */
public final class Umask {

    private static final int VALUE;
    private static final boolean ROOT;

    static {
        int umask = 022;
        boolean root = false;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("Umask:")) {
                    umask = Integer.parseInt(line.substring(6).trim(), 8);
                } else if (line.startsWith("Uid:")) {
                    // real, effective, saved, file system
                    root = "0".equals(line.substring(4).trim().split("\\s+")[1]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through to the usual defaults
        }
        VALUE = umask;
        ROOT = root;
    }

    private Umask() {
    }

    /** The umask, 022 when it cannot be read. */
    public static int get() {
        return VALUE;
    }

    /** Whether the effective user is root (who may change owners and write any file). */
    public static boolean privileged() {
        return ROOT;
    }
}
