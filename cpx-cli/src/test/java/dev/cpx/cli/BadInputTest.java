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

/**
 * Bad command lines: each gets one clear line (plus GNU's "Try 'cpx --help'" line for usage errors)
 * and exit status 1, nothing is copied, and no stack trace is printed unless --debug asks.
 */
class BadInputTest {

    @TempDir
    Path dir;

    private record Case(String message, String... args) {
    }

    @Test
    void usageErrorsAreOneLineAndExitOne() throws Exception {
        Files.writeString(dir.resolve("a"), "a");
        Files.writeString(dir.resolve("b"), "b");
        List<Case> cases = List.of(
                new Case("cpx: unrecognized option '--bogus'", "--bogus", "a", "c"),
                new Case("cpx: invalid option -- 'k'", "-k", "a", "c"),
                new Case("cpx: missing file operand"),
                new Case("cpx: missing destination file operand after 'a'", "a"),
                new Case("cpx: cannot make both hard and symbolic links", "-l", "-s", "a", "c"),
                new Case("cpx: options --backup and --no-clobber are mutually exclusive", "-n", "-b", "a", "c"),
                new Case("cpx: invalid exclude pattern '[x': Missing ']", "-e", "[x", "a", "c"),
                new Case("cpx: invalid number of jobs: '0' (expected 1 to 1024)", "-j", "0", "a", "c"),
                new Case("cpx: invalid number of jobs: '-1' (expected 1 to 1024)", "-j", "-1", "a", "c"),
                new Case("cpx: invalid number of jobs: '100000' (expected 1 to 1024)", "-j", "100000", "a", "c"),
                new Case("cpx: unknown engine 'bogus'; available engines: native, nio", "--engine=bogus", "a", "c"),
                new Case("cpx: option requires an argument -- 't'", "a", "-t"),
                new Case("cpx: with --parents, the destination must be a directory", "--parents", "a", "nodir"),
                new Case("cpx: extra operand 'c'", "-T", "a", "b", "c"));
        for (Case c : cases) {
            Cli.Result r = Cli.cpx(dir, c.args());
            String what = String.join(" ", c.args()) + "\n" + r;
            assertEquals(1, r.exit(), what);
            assertEquals(c.message() + "\nTry 'cpx --help' for more information.\n", r.err(), what);
            assertEquals("", r.out(), what);
            assertFalse(Files.exists(dir.resolve("c")), what);
        }
    }

    @Test
    void aBadValueListsTheValidOnesAsGnuDoes() throws Exception {
        // GNU's argmatch shape; quotes as GNU's quote() in the C locale (UTF-8 locales get curly ones).
        Files.writeString(dir.resolve("a"), "a");
        // In the C locale a JVM cannot decode a checkout path that is not ASCII (a clone in cöpx): cpx runs from the staged jars.
        Cli.Result r = Cli.run(dir, Map.of("LC_ALL", "C"), Cli.stagedJavaCommand("cpx"), "--sparse=bogus", "a", "c");
        assertEquals(new Cli.Result(1, "", """
                cpx: invalid argument 'bogus' for '--sparse'
                Valid arguments are:
                  - 'never'
                  - 'auto'
                  - 'always'
                Try 'cpx --help' for more information.
                """), r);
        Cli.Result backup = Cli.cpxAs("cp", dir, Map.of("LC_ALL", "C.UTF-8"), "--backup=n", "a", "c");
        assertEquals(new Cli.Result(1, "", """
                cp: ambiguous argument ‘n’ for ‘backup type’
                Valid arguments are:
                  - ‘none’, ‘off’
                  - ‘simple’, ‘never’
                  - ‘existing’, ‘nil’
                  - ‘numbered’, ‘t’
                Try 'cp --help' for more information.
                """), backup);
        assertFalse(Files.exists(dir.resolve("c")));
    }

    @Test
    void aBadJobsValueIsNotANumberError() throws Exception {
        Cli.Result r = Cli.cpx(dir, "-j", "many", "a", "c");
        assertEquals(1, r.exit(), r::toString);
        assertEquals(2, r.err().lines().count(), r::toString);
        assertTrue(r.err().startsWith("cpx: invalid argument for option '--jobs'"), r::toString);
    }

    @Test
    void anInternalErrorIsOneLineUnlessDebugAsksForTheTrace() throws Exception {
        // A plugin engine whose copy throws an unexpected runtime exception: a bug, not an I/O error.
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        PluginJars.build(Files.createDirectories(dir.resolve("build")), plugins.resolve("buggy.jar"), Map.of(
                "test.buggy.BuggyEngine", """
                        package test.buggy;

                        public final class BuggyEngine implements dev.cpx.spi.CopyEngine {
                            public String id() { return "buggy"; }
                            public String description() { return "throws a runtime exception"; }
                            public dev.cpx.spi.Availability availability() { return dev.cpx.spi.Availability.ok(); }
                            public long copy(dev.cpx.spi.CopyRequest r) { throw new IllegalStateException("bug in the engine"); }
                        }
                        """), List.of("test.buggy.BuggyEngine"));
        Files.writeString(dir.resolve("a"), "a");
        Cli.Result r = Cli.cpx(dir, "--plugin-path=" + plugins, "--engine=buggy", "a", "c");
        assertEquals(1, r.exit(), r::toString);
        assertEquals("cpx: cannot copy 'a': internal error: java.lang.IllegalStateException: bug in the engine\n", r.err());
        Cli.Result debug = Cli.cpxAs("cpx", dir, Map.of(), "--debug", "--plugin-path=" + plugins, "--engine=buggy", "a", "c");
        assertEquals(1, debug.exit(), debug::toString);
        assertTrue(debug.err().contains("\tat test.buggy.BuggyEngine.copy"), debug::toString);
        assertFalse(Files.exists(dir.resolve("c")));
    }
}
