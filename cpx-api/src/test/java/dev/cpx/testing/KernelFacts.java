package dev.cpx.testing;

/** The running kernel's version, for tests whose answer depends on when Linux gained a call. */
public final class KernelFacts {

    private KernelFacts() {
    }

    /** Whether the running kernel is Linux {@code major.minor} or later (from {@code os.version}, "6.18.44-…"). */
    public static boolean atLeast(int major, int minor) {
        String[] parts = System.getProperty("os.version", "0.0").split("[.-]");
        int maj = number(parts, 0);
        return maj > major || (maj == major && number(parts, 1) >= minor);
    }

    private static int number(String[] parts, int i) {
        try {
            return i < parts.length ? Integer.parseInt(parts[i]) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
