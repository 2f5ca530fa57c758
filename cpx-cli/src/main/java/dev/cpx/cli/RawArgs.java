package dev.cpx.cli;

import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
        if (jvmArgs.length == 0) {
            return jvmArgs;
        }
        try {
            byte[] cmdline = Files.readAllBytes(Path.of("/proc/self/cmdline"));
            List<byte[]> entries = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < cmdline.length; i++) {
                if (cmdline[i] == 0) {
                    byte[] entry = new byte[i - start];
                    System.arraycopy(cmdline, start, entry, 0, entry.length);
                    entries.add(entry);
                    start = i + 1;
                }
            }
            if (entries.size() < jvmArgs.length) {
                return jvmArgs;
            }
            String[] raw = new String[jvmArgs.length];
            int offset = entries.size() - jvmArgs.length;
            for (int i = 0; i < raw.length; i++) {
                raw[i] = PathBytes.decode(entries.get(offset + i));
                if (!sameArgument(raw[i], jvmArgs[i])) {
                    return jvmArgs;
                }
            }
            return raw;
        } catch (IOException | RuntimeException e) {
            return jvmArgs;
        }
    }

    /** The JVM's decoding equals the raw one except where the JVM put replacement characters. */
    private static boolean sameArgument(String raw, String jvm) {
        if (raw.equals(jvm)) {
            return true;
        }
        return jvm.indexOf('\uFFFD') >= 0 || jvm.indexOf('?') >= 0;
    }
}
