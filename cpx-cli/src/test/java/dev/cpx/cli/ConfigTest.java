package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.api.CopyOptions;
import dev.cpx.testing.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The defaults file: read from the user's configuration directory, overridden by the command line, strict. */
class ConfigTest {

    @TempDir
    Path dir;

    /** Where the tests' defaults file is: {@code $XDG_CONFIG_HOME/cpx/cpx.properties}. */
    private Path config;
    private Map<String, String> env;

    private void defaults(String text) throws Exception {
        Path xdg = dir.resolve("xdg");
        config = Files.createDirectories(xdg.resolve("cpx")).resolve("cpx.properties");
        Files.writeString(config, text);
        env = new HashMap<>(Map.of("XDG_CONFIG_HOME", xdg.toString(), "HOME", dir.resolve("home").toString()));
    }

    private Map<String, Object> json(String... args) throws Exception {
        Cli.Result r = Running.run(dir, List.of(), env, false, args);
        assertEquals(0, r.exit(), r::toString);
        return Json.object(r.out());
    }

    @ParameterizedTest(name = "engine={0} -j {1}")
    @CsvSource({"native,1", "nio,3"})
    void theFileSetsDefaultsAndTheCommandLineOverridesThem(String engine, int jobs) throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        defaults("# my defaults\n\njobs = " + jobs + "\nengine=" + engine + "\n");
        Map<String, Object> fromFile = json("--json", "-r", "src", "a");
        assertEquals(engine, fromFile.get("engine"));
        assertEquals((long) jobs, fromFile.get("jobs"));
        Trees.assertSameTree(src, dir.resolve("a"));
        String other = engine.equals("nio") ? "native" : "nio";
        Map<String, Object> overridden = json("--json", "-j", "2", "--engine=" + other, "-r", "src", "b");
        assertEquals(other, overridden.get("engine"));
        assertEquals(2L, overridden.get("jobs"));
        Trees.assertSameTree(src, dir.resolve("b"));
        Map<String, Object> ignored = json("--json", "--no-config", "-r", "src", "c");
        assertEquals("native", ignored.get("engine"));
        // The default: more while workers wait on the disk (DiskWaits), one per core on tmpfs.
        long used = (long) ignored.get("jobs");
        assertTrue(used >= CopyOptions.defaultJobs() || used == Math.min(CopyOptions.defaultJobs(),
                Runtime.getRuntime().availableProcessors()), ignored::toString);
    }

    @Test
    void withoutXdgConfigHomeTheFileIsInTheHomeDirectory() throws Exception {
        Files.writeString(dir.resolve("a"), "x");
        Path home = dir.resolve("home");
        Files.writeString(Files.createDirectories(home.resolve(".config/cpx")).resolve("cpx.properties"), "engine=nio\n");
        Map<String, String> noXdg = new HashMap<>();
        noXdg.put("HOME", home.toString());
        noXdg.put("XDG_CONFIG_HOME", null);
        Cli.Result r = Running.run(dir, List.of(), noXdg, false, "--json", "a", "b");
        assertEquals("nio", Json.object(r.out()).get("engine"), r::toString);
        // No file at all: the built-in defaults.
        noXdg.put("HOME", dir.resolve("nowhere").toString());
        assertEquals("native", Json.object(Running.run(dir, List.of(), noXdg, false, "--json", "a", "c").out()).get("engine"));
    }

    @Test
    void progressAndSummaryCanBeTurnedOnByDefaultAndOffOnTheCommandLine() throws Exception {
        TreeFacts.manyFiles(dir.resolve("src"), 300);
        defaults("progress=always\nsummary: always\n");
        List<String> now = List.of("-Dcpx.progress.delay=0");
        Cli.Result on = Running.run(dir, now, env, false, "-r", "src", "a");
        assertEquals(0, on.exit(), on::toString);
        assertFalse(ProgressTest.bars(on.err()).isEmpty(), on::toString);
        assertTrue(Screen.render(on.err()).get(0).startsWith("cpx: copied 300 files"), on::toString);
        assertEquals(new Cli.Result(0, "", ""), Running.run(dir, now, env, false, "-q", "-r", "src", "b"));
        Cli.Result noBar = Running.run(dir, now, env, false, "--no-progress", "-r", "src", "c");
        assertFalse(noBar.err().contains("\r"), noBar::toString);
        assertTrue(noBar.err().startsWith("cpx: copied 300 files"), noBar::toString);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "jobs=0|1|bad value for 'jobs': invalid number of jobs: '0' (expected 1 to 1024)",
        "jobs=many|1|bad value for 'jobs': invalid argument for option '--jobs': 'many' is not an int",
        "# comment\njbos=2|2|unknown key 'jbos'; known keys: jobs, engine, plugin-path, progress, summary",
        "recursive=true|1|unknown key 'recursive'; known keys: jobs, engine, plugin-path, progress, summary",
        "engine=turbo|1|bad value for 'engine': unknown engine 'turbo'; available engines: native, nio",
        "progress=sometimes|1|bad value for 'progress': invalid argument 'sometimes' for '--progress'; valid arguments are 'auto', 'always', 'never'",
        "jobs=2\nengine=nio\njobs=3|3|'jobs' is set twice (also on line 1)",
        "\n\njobs|3|expected KEY=VALUE, found 'jobs'",
        "summary=|1|no value for 'summary'",
    })
    void aMalformedFileIsAClearErrorNeverSkipped(String spec) throws Exception {
        String[] parts = spec.split("\\|");
        defaults(parts[0] + "\n");
        Files.writeString(dir.resolve("a"), "x");
        Cli.Result r = Running.run(dir, List.of(), env, false, "a", "b");
        assertEquals(new Cli.Result(1, "", "cpx: defaults file '" + config + "', line " + parts[1] + ": " + parts[2] + "\n"), r);
        assertFalse(Files.exists(dir.resolve("b")), "nothing is copied");
        assertEquals(0, Running.run(dir, List.of(), env, false, "--no-config", "a", "b").exit(), "--no-config ignores it");
        assertEquals("x", Files.readString(dir.resolve("b")));
    }

    @Test
    void anUnreadableFileIsAnError() throws Exception {
        defaults("");
        Files.delete(config);
        Files.createDirectory(config);
        Files.writeString(dir.resolve("a"), "x");
        Cli.Result r = Running.run(dir, List.of(), env, false, "a", "b");
        assertEquals(new Cli.Result(1, "", "cpx: cannot read defaults file '" + config + "': Is a directory\n"), r);
    }

    /**
     * {@code --version} as the first word prints the version and reads nothing else, the defaults
     * file neither (as GNU's getopt acts on it before any word after it; {@code git --version}
     * reads no configuration either); after another option, the file is read as for any command.
     */
    @Test
    void versionFirstReadsNoDefaultsFile() throws Exception {
        defaults("jobs=many\n");
        Cli.Result first = Running.run(dir, List.of(), env, false, "--version", "--bogus");
        assertEquals(0, first.exit(), first::toString);
        assertTrue(first.out().startsWith("cpx ") && first.out().contains("\nengine native "), first::toString);
        assertEquals("", first.err());
        Cli.Result later = Running.run(dir, List.of(), env, false, "-r", "--version");
        assertEquals(new Cli.Result(1, "", "cpx: defaults file '" + config + "', line 1: bad value for 'jobs': "
                + "invalid argument for option '--jobs': 'many' is not an int\n"), later);
    }
}
