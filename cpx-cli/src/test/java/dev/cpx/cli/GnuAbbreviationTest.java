package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.testing.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * cpx's own long options (--progress, --no-progress, --no-config, --list-engines, ...) do not take
 * GNU cp's abbreviations away: a prefix that names one GNU option still does, as scripts for cp expect.
 */
class GnuAbbreviationTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--no-c a b", "--pr=mode a new", "--no-p=xattr a new", "--pre a new", "--ver a new"})
    void abbreviationsOfGnuOptionsMeanWhatTheyMeanToGnuCp(String command) throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        String[] args = command.split(" ");
        Path gnuDir = scene(dir.resolve("gnu"));
        Path cpxDir = scene(dir.resolve("cpx"));
        Cli.Result gnu = Cli.run(gnuDir, Map.of(), List.of(Cli.GNU_CP.toString()), args);
        Cli.Result cpx = Cli.cpxAs("/usr/bin/cp", cpxDir, Map.of(), args);
        String what = Arrays.toString(args) + "\n" + cpx + "\nGNU: " + gnu;
        assertEquals(gnu.exit(), cpx.exit(), what);
        assertEquals(gnu.err(), cpx.err(), what);
        Trees.assertSameTree(gnuDir, cpxDir, Trees.Detail.MODE);
    }

    private static Path scene(Path d) throws Exception {
        Files.createDirectories(d);
        Files.writeString(d.resolve("a"), "new");
        Files.setAttribute(d.resolve("a"), "unix:mode", 0604);
        Files.writeString(d.resolve("b"), "old");
        return d;
    }
}
