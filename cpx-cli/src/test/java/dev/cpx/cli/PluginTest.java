package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Engines are plugins: a jar built here, dropped into a plugin directory, is listed and used. */
class PluginTest {

    @TempDir
    Path dir;

    private static final String COUNTING_ENGINE = """
            package test.plugin;

            import dev.cpx.spi.*;
            import dev.cpx.spi.support.*;
            import java.io.IOException;
            import java.nio.charset.StandardCharsets;
            import java.nio.file.*;

            /** Copies with the shared read/write loop and logs each copy to $CPX_TEST_PLUGIN_LOG. */
            public final class LoggingEngine implements CopyEngine {
                public String id() { return "logging"; }
                public String description() { return "test plugin that logs its copies"; }
                public String version() { return "9.9.9"; }
                public Availability availability() { return Availability.ok(); }
                public long copy(CopyRequest request) throws IOException {
                    long n = BufferedCopy.copy(request);
                    String log = System.getenv("CPX_TEST_PLUGIN_LOG");
                    if (log != null) {
                        Files.writeString(Path.of(log), "copied " + n + "\\n", StandardCharsets.UTF_8,
                                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                    }
                    return n;
                }
            }
            """;

    private static final String THROWING_ENGINE = """
            package test.broken;

            public final class ThrowingEngine implements dev.cpx.spi.CopyEngine {
                public ThrowingEngine() { throw new IllegalStateException("constructor fails on purpose"); }
                public String id() { return "throwing"; }
                public String description() { return "never constructed"; }
                public dev.cpx.spi.Availability availability() { return dev.cpx.spi.Availability.ok(); }
                public long copy(dev.cpx.spi.CopyRequest r) { return 0; }
            }
            """;

    private Path pluginDir() throws Exception {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        PluginJars.build(Files.createDirectories(dir.resolve("build")), plugins.resolve("logging-engine.jar"),
                Map.of("test.plugin.LoggingEngine", COUNTING_ENGINE), List.of("test.plugin.LoggingEngine"));
        return plugins;
    }

    @Test
    void aPluginJarIsListedAndUsed() throws Exception {
        Path plugins = pluginDir();
        Cli.Result list = Cli.cpx(dir, "--plugin-path=" + plugins, "--list-engines");
        assertEquals(0, list.exit(), list::toString);
        assertTrue(list.out().lines().anyMatch(l -> l.startsWith("logging ") && l.contains(" yes ") && l.contains("9.9.9")), list::toString);

        Files.writeString(dir.resolve("src"), "through the plugin");
        Path log = dir.resolve("plugin.log");
        Cli.Result copy = Cli.cpxAs("cpx", dir, Map.of("CPX_TEST_PLUGIN_LOG", log.toString()),
                "--plugin-path=" + plugins, "--engine=logging", "src", "dst");
        assertEquals(0, copy.exit(), copy::toString);
        assertEquals("through the plugin", Files.readString(dir.resolve("dst")));
        assertEquals("copied 18\n", Files.readString(log));
    }

    @Test
    void pluginDirectoriesComeFromTheEnvironmentToo() throws Exception {
        Path plugins = pluginDir();
        Cli.Result list = Cli.cpxAs("cpx", dir, Map.of("CPX_PLUGIN_PATH", "/nonexistent:" + plugins), "--list-engines");
        assertEquals(0, list.exit(), list::toString);
        assertTrue(list.out().contains("logging "), list::toString);
        assertEquals("", list.err());
    }

    @Test
    void aBrokenPluginIsReportedAndTheOthersStillWork() throws Exception {
        Path plugins = pluginDir();
        PluginJars.build(Files.createDirectories(dir.resolve("build2")), plugins.resolve("throwing.jar"),
                Map.of("test.broken.ThrowingEngine", THROWING_ENGINE), List.of("test.broken.ThrowingEngine"));
        Files.write(plugins.resolve("garbage.jar"), new byte[] {1, 2, 3});
        Files.writeString(dir.resolve("src"), "x");
        Cli.Result r = Cli.cpx(dir, "--plugin-path=" + plugins, "--engine=logging", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        assertEquals("x", Files.readString(dir.resolve("dst")));
        List<String> lines = r.err().lines().toList();
        assertTrue(lines.stream().allMatch(l -> l.startsWith("cpx: warning: ")), r::toString);
        assertTrue(lines.stream().anyMatch(l -> l.contains("test.broken.ThrowingEngine") && l.contains("constructor fails on purpose")), r::toString);
        assertEquals(1, lines.stream().filter(l -> l.startsWith("cpx: warning: cannot load plugin ") && l.contains("garbage.jar")).count(),
                "the jar that is not one is named, in one line: " + r);
        assertFalse(r.err().contains("\tat "), "no stack trace");
    }

    @Test
    void duplicateEngineIdsAreRejectedLoudly() throws Exception {
        Path plugins = pluginDir();
        String sameId = COUNTING_ENGINE.replace("package test.plugin;", "package test.other;");
        PluginJars.build(Files.createDirectories(dir.resolve("build3")), plugins.resolve("other-engine.jar"),
                Map.of("test.other.LoggingEngine", sameId), List.of("test.other.LoggingEngine"));
        Cli.Result r = Cli.cpx(dir, "--plugin-path=" + plugins, "--list-engines");
        assertEquals(0, r.exit(), r::toString);
        assertTrue(r.err().contains("duplicate engine id 'logging'"), r::toString);
        assertEquals(1, r.out().lines().filter(l -> l.startsWith("logging ")).count(), r::toString);
    }
}
