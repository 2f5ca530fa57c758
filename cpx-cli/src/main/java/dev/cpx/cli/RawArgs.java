package dev.cpx.cli;

import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The command line as the kernel gave it. The JVM decodes {@code argv} with the platform charset,
 * which loses bytes that are not valid UTF-8; Linux keeps the raw bytes in
 * {@code /proc/self/cmdline}, whose last entries are the program's arguments. Each argument is
 * returned with undecodable bytes as surrogate escapes (see {@link PathBytes}).
 */
final class RawArgs {

    private RawArgs() {
    }

    static String[] of(String[] jvmArgs) {
        if (plainAscii(jvmArgs)) {
            return jvmArgs;
        }
        try {
            byte[] cmdline = Files.readAllBytes(Path.of("/proc/self/cmdline"));
            // The last jvmArgs.length entries, found from the end (each ends with a NUL).
            int[] starts = new int[jvmArgs.length + 1];
            starts[jvmArgs.length] = cmdline.length;
            int k = jvmArgs.length;
            for (int i = cmdline.length - 2; i >= -1 && k > 0; i--) {
                if (i < 0 || cmdline[i] == 0) {
                    starts[--k] = i + 1;
                }
            }
            if (k > 0 || cmdline.length == 0 || cmdline[cmdline.length - 1] != 0) {
                return jvmArgs;
            }
            String[] raw = new String[jvmArgs.length];
            for (int i = 0; i < raw.length; i++) {
                int from = starts[i];
                int to = starts[i + 1] - 1;
                // An ASCII argument is what the JVM made of it (most are): nothing to decode.
                raw[i] = sameAscii(cmdline, from, to, jvmArgs[i]) ? jvmArgs[i]
                        : PathBytes.decode(java.util.Arrays.copyOfRange(cmdline, from, to));
                if (!sameArgument(raw[i], jvmArgs[i])) {
                    return jvmArgs;
                }
            }
            return raw;
        } catch (IOException | RuntimeException e) {
            return jvmArgs;
        }
    }

    /**
     * Whether every argument is ASCII but '?': then the JVM's decoding lost nothing (Linux's
     * charsets are ASCII-compatible: a byte above 0x7F never decodes to an ASCII character, and
     * what cannot be decoded becomes U+FFFD or '?'), and /proc/self/cmdline need not be read.
     */
    static boolean plainAscii(String[] args) {
        for (String a : args) {
            for (int i = 0; i < a.length(); i++) {
                char c = a.charAt(i);
                if (c >= 0x80 || c == '?') {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether {@code bytes[from, to)} are ASCII and the chars of {@code s}, one for one. */
    private static boolean sameAscii(byte[] bytes, int from, int to, String s) {
        if (to - from != s.length()) {
            return false;
        }
        for (int i = from; i < to; i++) {
            byte b = bytes[i];
            if (b < 0 || b != s.charAt(i - from)) {
                return false;
            }
        }
        return true;
    }

    /** The JVM's decoding equals the raw one except where the JVM put replacement characters. */
    private static boolean sameArgument(String raw, String jvm) {
        if (raw.equals(jvm)) {
            return true;
        }
        return jvm.indexOf('\uFFFD') >= 0 || jvm.indexOf('?') >= 0;
    }
}
