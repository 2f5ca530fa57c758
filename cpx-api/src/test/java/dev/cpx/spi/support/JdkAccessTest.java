package dev.cpx.spi.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JDK's private state cpx reads, in child JVMs started each way cpx can run: without module
 * flags (JDK 17 to 23: {@link PrivateFields}), with {@code --add-opens} (JDK 24 and later:
 * reflection), and with neither (strings and the {@code unix:} view).
 */
class JdkAccessTest {

    private static final List<String> OPENS = List.of("--add-opens=java.base/sun.nio.fs=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED");

    @TempDir
    Path dir;

    @Test
    void withoutModuleFlagsTheFieldsAreReadBeforeJdk24() throws Exception {
        String out = probe(List.of());
        if (Runtime.version().feature() < 24) {
            assertExact(out);
        } else {
            assertEquals("exact false", out.lines().findFirst().orElse(""), out);
        }
    }

    @Test
    void withTheOpensReflectionReadsThem() throws Exception {
        assertExact(probe(OPENS));
    }

    @Test
    void withNeitherNamesAndStatsStillWork() throws Exception {
        String out = probe(List.of("-Dcpx.privateFields=false"));
        assertTrue(out.contains("exact false\n"), out);
        assertTrue(out.contains("descriptors false\n"), out);
        assertTrue(out.contains("stat true\n"), out);
    }

    private static void assertExact(String out) {
        assertEquals(String.join("\n", "exact true", "roundtrip true", "listed true", "descriptors true", "fd true",
                "channel [7, 7, 9, 9] closed true", "stat true") + "\n", out);
    }

    private String probe(List<String> flags) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(flags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), JdkAccessProbe.class.getName(), dir.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe finished");
        assertEquals(0, p.exitValue(), out);
        return out;
    }
}
