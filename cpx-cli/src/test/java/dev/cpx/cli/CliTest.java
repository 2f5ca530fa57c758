package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.testing.Trees;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The cpx command as users call it: real process, real trees, exit status and messages. */
class CliTest {

    @TempDir
    Path dir;

    @Test
    void listsBothEngines() throws Exception {
        Cli.Result r = Cli.cpx(dir, "--list-engines");
        assertEquals(0, r.exit(), r::toString);
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("native ") && l.contains(" yes ")), r::toString);
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("nio ") && l.contains(" yes ")), r::toString);
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("native ") && l.contains("[default]")), r::toString);
        assertEquals("", r.err());
    }

    /**
     * The ffm engine (cpx-engine-ffm) is on the class path everywhere: before JDK 22 it is listed as
     * unavailable with the reason, asking for it is a usage error of one line, and auto still copies
     * (with the native engine); from JDK 22 on it is available but auto stays native (docs/engines-ffm.md).
     */
    @Test
    void theFfmEngineIsListedWithWhyNotAndAutoStillCopies() throws Exception {
        Cli.Result list = Cli.cpx(dir, "--list-engines");
        assertEquals(0, list.exit(), list::toString);
        boolean jdk22 = Runtime.version().feature() >= 22;
        assertTrue(list.out().lines().anyMatch(l -> l.startsWith("ffm ")
                && (jdk22 || l.contains(" no ") && l.contains("needs JDK 22 or later (java.lang.foreign); this is JDK "))), list::toString);
        assertTrue(list.out().lines().anyMatch(l -> l.startsWith("native ") && l.contains("[default]")), list::toString);
        Files.createDirectories(dir.resolve("src/sub"));
        Files.writeString(dir.resolve("src/sub/f"), "auto");
        Cli.Result copy = Cli.cpx(dir, "-r", "--engine=auto", "src", "dst");
        assertEquals(0, copy.exit(), copy::toString);
        assertEquals("", copy.err());
        assertEquals("auto", Files.readString(dir.resolve("dst/sub/f")));
        if (!jdk22) {
            Cli.Result ffm = Cli.cpx(dir, "-r", "--engine=ffm", "src", "dst2");
            assertEquals(1, ffm.exit(), ffm::toString);
            assertEquals("cpx: engine 'ffm' is not available here: needs JDK 22 or later (java.lang.foreign); this is JDK "
                    + Runtime.version().feature() + "\nTry 'cpx --help' for more information.\n", ffm.err());
            assertFalse(Files.exists(dir.resolve("dst2")));
        }
    }

    @Test
    void anUnknownEngineIsAUsageErrorNamingTheAvailableOnes() throws Exception {
        Files.writeString(dir.resolve("a"), "x");
        Cli.Result r = Cli.cpx(dir, "--engine=bogus", "a", "b");
        assertEquals(1, r.exit(), r::toString);
        assertEquals("cpx: unknown engine 'bogus'; available engines: native, nio\n"
                + "Try 'cpx --help' for more information.\n", r.err());
        assertFalse(Files.exists(dir.resolve("b")));
    }

    @Test
    void versionNamesEnginesJdkAndOs() throws Exception {
        Cli.Result r = Cli.cpx(dir, "--version");
        assertEquals(0, r.exit(), r::toString);
        assertTrue(r.out().startsWith("cpx "), r::toString);
        assertTrue(r.out().contains("engine native "), r::toString);
        assertTrue(r.out().contains("engine nio "), r::toString);
        assertTrue(r.out().contains("java " + System.getProperty("java.version")), r::toString);
        assertTrue(r.out().contains("os Linux"), r::toString);
    }

    /**
     * The JVM flags ask for transparent huge pages (docs/performance.md, twenty-first session). Where
     * the kernel has none (mode "never"), JDK 17 and 25 print a warning about it on standard output,
     * which must not reach a copy's output. The kernel's setting is replaced for the run alone, in a
     * mount namespace of its own; a run that turns the warning back on shows the replacement works.
     */
    @ParameterizedTest
    @ValueSource(strings = {"native", "nio"})
    void withoutHugePagesTheJvmPrintsNothingOfIt(String engine) throws Exception {
        Path enabled = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        assumeTrue(Files.isReadable(enabled), "this kernel has no transparent huge pages at all");
        Path never = Files.writeString(dir.resolve("thp-never"), "always madvise [never]\n");
        Files.writeString(dir.resolve("f"), "x");
        String body = "exec unshare -m --propagation private bash -c 'mount --bind \"$0\" " + enabled + " && exec \"$@\"' \"$@\"";

        List<String> warned = new ArrayList<>(Cli.javaCommand("cpx"));
        warned.add(warned.indexOf("-cp"), "-Xlog:pagesize=warning");
        warned.add(0, never.toString());
        warned.addAll(List.of("--engine=" + engine, "-v", "f", "warned"));
        Cli.Result control = Cli.runScript(dir, Map.of(), null, body, warned);
        assertEquals(0, control.exit(), control::toString);
        assertTrue(control.out().contains("[pagesize]"), "the namespace's kernel setting is seen: " + control);

        List<String> plain = new ArrayList<>(Cli.javaCommand("cpx"));
        plain.add(0, never.toString());
        plain.addAll(List.of("--engine=" + engine, "-v", "f", "g"));
        Cli.Result copy = Cli.runScript(dir, Map.of(), null, body, plain);
        assertEquals(new Cli.Result(0, "'f' -> 'g'\n", ""), copy);
        assertEquals("x", Files.readString(dir.resolve("g")));
    }

    /** Start-up (issue 11): --version and --help must not load JNA and the C library; a copy does, spinning no proxy class. */
    @Test
    void onlyACopyLoadsTheNativeLibrary() throws Exception {
        Cli.Result version = withClassLog("--version");
        assertTrue(version.out().contains("dev.cpx.cli.VersionProvider"), "the log lists loaded classes");
        assertTrue(version.out().contains("engine native "), version::toString);
        assertFalse(version.out().contains("com.sun.jna."), "JNA loaded by --version");
        assertFalse(withClassLog("--help").out().contains("com.sun.jna."), "JNA loaded by --help");
        Files.writeString(dir.resolve("f"), "x");
        Cli.Result copy = withClassLog("f", "g");
        assertTrue(copy.out().contains("com.sun.jna.Native "), "JNA loaded by a copy");
        // JNA's own structure's field order is given to it, not read from an annotation (a proxy).
        assertFalse(copy.out().contains("__dynamic_proxy__"), copy::toString);
        assertEquals("x", Files.readString(dir.resolve("g")));
    }

    /** cpx {@code args} with the class loading log on stdout; it must succeed. */
    private Cli.Result withClassLog(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(Cli.javaCommand("cpx"));
        cmd.add(1, "-Xlog:class+load=info:stdout");
        Cli.Result r = Cli.run(dir, Map.of(), cmd, args);
        assertEquals(0, r.exit(), r::toString);
        return r;
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void verboseListsEveryEntryLikeGnuCp(String engine) throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        Trees.generate(dir.resolve("src"));
        Cli.Result gnu = Cli.gnu(dir, "-rv", "src", "g");
        Cli.Result cpx = Cli.cpx(dir, "--engine=" + engine, "-rv", "src", "c");
        assertEquals(0, cpx.exit(), cpx::toString);
        assertEquals(sortedLines(gnu.out().replace(" -> 'g", " -> 'c").replace(" -> \"g", " -> \"c")), sortedLines(cpx.out()));
        // A directory's line comes before the lines of its contents, as in GNU cp.
        var lines = cpx.out().lines().toList();
        assertTrue(lines.indexOf("'src/a' -> 'c/a'") < lines.indexOf("'src/a/big.bin' -> 'c/a/big.bin'"), cpx::toString);
    }

    /**
     * Output that cannot be written (standard output on {@code /dev/full}) ends as GNU cp's: the copy
     * made, {@code cp: write error: No space left on device}, exit status 1 (before, cpx's print
     * writer swallowed the error and it exited 0). For {@code -v}, {@code --version} and {@code --help}.
     */
    @ParameterizedTest(name = "engine={0} {1}")
    @org.junit.jupiter.params.provider.CsvSource({"native, -v", "nio, -v", "native, --version", "native, --help"})
    void outputThatCannotBeWrittenIsAnErrorAsInGnuCp(String engine, String option) throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        Files.write(dir.resolve("f"), new byte[] {1, 2, 3});
        String full = "exec \"$@\" > /dev/full";
        Cli.Result gnu = Cli.runScript(dir, Map.of(), null, full, List.of(Cli.GNU_CP.toString(), option, "f", "g"));
        List<String> command = new ArrayList<>(Cli.javaCommand("cp"));
        command.addAll(List.of("--engine=" + engine, option, "f", "c"));
        Cli.Result cpx = Cli.runScript(dir, Map.of(), null, full, command);
        assertEquals(gnu.exit(), cpx.exit(), cpx::toString);
        assertEquals(gnu.err().replace(Cli.GNU_CP + ": ", "cp: "), cpx.err());
        assertEquals(Files.exists(dir.resolve("g")), Files.exists(dir.resolve("c")));
    }

    /**
     * A reader that goes away ({@code cpx -rv ... | head -c 1}) ends cpx as quietly as GNU cp, which
     * dies by SIGPIPE: nothing on stderr (exit 1, where GNU's shell sees 141). Also in a locale whose
     * system messages are translated (German, made here with localedef where the machine has its
     * sources; else the locale falls back to C's words): the JDK words the reason in it, which cpx
     * took for another write error and printed.
     */
    @ParameterizedTest(name = "engine={0} {1}")
    @org.junit.jupiter.params.provider.CsvSource({"native, C", "nio, C", "native, de_DE.UTF-8"})
    void aReaderThatGoesAwayEndsTheCopyQuietlyAsInGnuCp(String engine, String locale) throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        Path src = Files.createDirectories(dir.resolve("src"));
        for (int i = 0; i < 4000; i++) {
            Files.writeString(src.resolve("a-file-with-a-long-name-" + i), "x");
        }
        Path locales = Files.createDirectories(dir.resolve("locales"));
        if (!locale.equals("C")) {
            new ProcessBuilder("localedef", "-i", "de_DE", "-f", "UTF-8", locales.resolve(locale).toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        }
        Map<String, String> env = Map.of("LOCPATH", locales.toString(), "LC_ALL", locale);
        String script = "\"$@\" | head -c 1 > /dev/null; exit ${PIPESTATUS[0]}";
        Cli.Result gnu = Cli.runScript(dir, env, null, script, List.of(Cli.GNU_CP.toString(), "-rv", "src", "gnu"));
        List<String> command = new ArrayList<>(Cli.javaCommand("cp"));
        command.addAll(List.of("--engine=" + engine, "-rv", "src", "cpx"));
        Cli.Result cpx = Cli.runScript(dir, env, null, script, command);
        assertEquals(new Cli.Result(141, "", ""), gnu);
        assertEquals(new Cli.Result(1, "", ""), cpx);
    }

    /**
     * An answer that cannot be read ends as GNU cp's: the file kept (declined), {@code cp: error
     * closing file} after the prompt, exit status 1; {@code : Bad file descriptor} where standard
     * input is closed, which the launcher tells the JVM ({@code -Dcpx.stdin=closed}): before, cpx
     * read its answer from the file the JVM had opened on descriptor 0 and exited 0.
     */
    @ParameterizedTest(name = "engine={0} stdin {1}")
    @org.junit.jupiter.params.provider.CsvSource({"native, <&-", "nio, <&-", "native, < .", "native, < /dev/null"})
    void anAnswerThatCannotBeReadIsAnErrorAsInGnuCp(String engine, String stdin) throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        Path byGnu = Files.createDirectories(dir.resolve("gnu"));
        Path byCpx = Files.createDirectories(dir.resolve("cpx"));
        for (Path d : List.of(byGnu, byCpx)) {
            Files.writeString(d.resolve("f"), "new");
            Files.writeString(d.resolve("g"), "old");
        }
        String script = "exec \"$@\" " + stdin;
        Cli.Result gnu = Cli.runScript(byGnu, Map.of(), null, script, List.of(Cli.GNU_CP.toString(), "-i", "f", "g"));
        List<String> command = new ArrayList<>(Cli.javaCommand("cp"));
        if (stdin.equals("<&-")) {
            command.add(1, "-Dcpx.stdin=closed");
        }
        command.addAll(List.of("--engine=" + engine, "-i", "f", "g"));
        Cli.Result cpx = Cli.runScript(byCpx, Map.of(), null, script, command);
        assertEquals(gnu.exit(), cpx.exit(), cpx::toString);
        assertEquals(gnu.err().replace(Cli.GNU_CP + ": ", "cp: "), cpx.err());
        assertEquals("old", Files.readString(byGnu.resolve("g")));
        assertEquals("old", Files.readString(byCpx.resolve("g")));
    }

    private static String sortedLines(String s) {
        return String.join("\n", s.lines().sorted().toList());
    }

    /**
     * Standard error is GNU cp's: a logging configuration given to the JVM (one that would print every
     * record, such as JNA's as it loads) puts no log line there; the copy is made.
     */
    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aLoggingConfigurationPutsNoLineOnStandardError(String engine) throws Exception {
        Path config = dir.resolve("logging.properties");
        Files.writeString(config, "handlers=java.util.logging.ConsoleHandler\n.level=ALL\njava.util.logging.ConsoleHandler.level=ALL\n");
        Files.writeString(dir.resolve("a"), "data");
        List<String> cmd = new ArrayList<>(Cli.javaCommand("cpx"));
        cmd.add(1, "-Djava.util.logging.config.file=" + config);
        Cli.Result r = Cli.run(dir, Map.of(), cmd, "--engine=" + engine, "a", "b");
        assertEquals(new Cli.Result(0, "", ""), r);
        assertEquals("data", Files.readString(dir.resolve("b")));
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void namesThatAreNotUtf8CopyFromTheCommandLine(String engine) throws Exception {
        byte[] name = {'x', (byte) 0xff, 'y'};
        Files.write(Trees.child(dir, name), "bytes".getBytes(StandardCharsets.US_ASCII));
        String arg = dev.cpx.spi.support.PathBytes.decode(name);
        String target = dev.cpx.spi.support.PathBytes.decode(new byte[] {'t', (byte) 0xfe});
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "-v", arg, target);
        assertEquals(0, r.exit(), r::toString);
        assertEquals("'x'$'\\377''y' -> 't'$'\\376'\n", r.out());
        assertArrayEquals("bytes".getBytes(StandardCharsets.US_ASCII), Files.readAllBytes(Trees.child(dir, new byte[] {'t', (byte) 0xfe})));
    }

    @Test
    void errorsMatchGnuCp() throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        String[][] cases = {
            {},
            {"a"},
            {"--bogus", "a", "b"},
            {"-Z9", "a", "b"},
            {"nonexistent", "b"},
            {"d", "e"},
            {"a", "a"},
            {"-r", "d", "d/sub"},
            {"-r", "d", "d"},
            {"a", "d", "nodir"},
            {"-t", "nodir", "a"},
            {"-t", "a", "a"},
            {"-T", "a", "b", "c"},
            {"--verb", "a", "verbose-copy"},
            {"--vers", "a", "b"},
            {"--sparse=sometimes", "a", "b"},
        };
        int n = 0;
        for (String[] args : cases) {
            // Each tool gets a fresh copy of the same scene: some cases change it.
            Path gnuDir = scene(dir.resolve("gnu" + n));
            Path cpxDir = scene(dir.resolve("cpx" + n++));
            Cli.Result gnu = Cli.run(gnuDir, Map.of(), java.util.List.of(Cli.GNU_CP.toString()), args);
            Cli.Result cpx = Cli.cpxAs("/usr/bin/cp", cpxDir, Map.of(), args);
            String what = "cp " + Arrays.toString(args) + "\n" + cpx + "\nGNU: " + gnu;
            assertEquals(gnu.exit(), cpx.exit(), what);
            if (!Arrays.asList(args).contains("d")) {
                // Copies into themselves stop where GNU meets the copy in inode order, which differs between two scenes.
                Trees.assertSameTree(gnuDir, cpxDir, Trees.Detail.MODE);
            }
            if (args.length > 0 && args[0].startsWith("-Z")) {
                // Reported in one line instead of GNU's several; see the compatibility table.
                assertEquals(2, cpx.err().lines().count(), what);
                continue;
            }
            assertEquals(gnu.err(), cpx.err(), what);
        }
    }

    private static Path scene(Path d) throws Exception {
        Files.createDirectories(d.resolve("d"));
        Files.writeString(d.resolve("d/inside"), "i");
        Files.writeString(d.resolve("a"), "x");
        return d;
    }

    @Test
    void ambiguousAbbreviationsAreUsageErrorsInGnuWords() throws Exception {
        // GNU's candidates only: cpx's own --verify never makes a GNU abbreviation mean something else.
        Cli.Result r = Cli.cpx(dir, "--ver", "a", "b");
        assertEquals(1, r.exit());
        assertEquals("cpx: option '--ver' is ambiguous; possibilities: '--verbose' '--version'\n"
                + "Try 'cpx --help' for more information.\n", r.err());
        Cli.Result own = Cli.cpx(dir, "--verif", "a", "b");
        assertEquals(1, own.exit(), "an unambiguous prefix of cpx's own option works: " + own);
        assertTrue(own.err().contains("cannot stat 'a'"), own::toString);
    }

    @Test
    void messagesUseTheNameTheProgramWasCalledBy() throws Exception {
        Cli.Result r = Cli.cpxAs("cp", dir, Map.of(), "missing", "x");
        assertEquals(1, r.exit());
        assertEquals("cp: cannot stat 'missing': No such file or directory\n", r.err());
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aFailedOperandDoesNotStopTheOthers(String engine) throws Exception {
        Files.writeString(dir.resolve("one"), "1");
        Files.writeString(dir.resolve("two"), "2");
        Path t = Files.createDirectory(dir.resolve("t"));
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "one", "missing", "two", "t");
        assertEquals(1, r.exit(), r::toString);
        assertEquals("cpx: cannot stat 'missing': No such file or directory\n", r.err());
        assertEquals("1", Files.readString(t.resolve("one")));
        assertEquals("2", Files.readString(t.resolve("two")));
    }

    /**
     * Many small file operands (more than cpx lets wait to be written while the next are decided),
     * with a missing one and a directory without -r among them: every file copied, the -v lines and
     * messages GNU cp's, in its order, and the exit status its.
     */
    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void manyFileOperandsAreDecidedInOrderAndAllWritten(String engine) throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        Path src = Files.createDirectory(dir.resolve("src"));
        List<String> args = new ArrayList<>(List.of("-v"));
        for (int i = 0; i < 300; i++) {
            String name = String.format("f%03d", i);
            Files.write(src.resolve(name), ("x".repeat(i * 7 % 5000)).getBytes(StandardCharsets.US_ASCII));
            args.add("src/" + name);
            if (i == 150) {
                args.add("src/missing");
            } else if (i == 200) {
                Files.createDirectory(src.resolve("d"));
                args.add("src/d");
            }
        }
        Files.createDirectory(dir.resolve("g"));
        Files.createDirectory(dir.resolve("c"));
        List<String> gnuArgs = new ArrayList<>(args);
        gnuArgs.add("g");
        List<String> cpxArgs = new ArrayList<>(args);
        cpxArgs.add(0, "--engine=" + engine);
        cpxArgs.add("c");
        Cli.Result gnu = Cli.gnu(dir, gnuArgs.toArray(String[]::new));
        Cli.Result cpx = Cli.cpx(dir, cpxArgs.toArray(String[]::new));
        assertEquals(gnu.exit(), cpx.exit(), cpx::toString);
        assertEquals(gnu.out().replace(" -> 'g/", " -> 'c/"), cpx.out());
        assertEquals(gnu.err().replace(Cli.GNU_CP + ":", "cpx:"), cpx.err());
        for (int i = 0; i < 300; i++) {
            String name = String.format("f%03d", i);
            assertArrayEquals(Files.readAllBytes(src.resolve(name)), Files.readAllBytes(dir.resolve("c").resolve(name)), name);
        }
    }

    @Test
    void copiesWithoutTheJvmFlagsItPrefers() throws Exception {
        // Embedded without --add-opens on a JDK where the private fields cannot be read either (JDK 24+,
        // or as here told so): exact name bytes and the native engine are lost, copying is not.
        Path src = Files.createDirectories(dir.resolve("src/a/b"));
        Files.writeString(src.resolve("f"), "plain");
        Files.writeString(dir.resolve("src/top"), "top");
        List<String> cmd = new java.util.ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Dcpx.privateFields=false", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        Cli.Result r = Cli.run(dir, Map.of(), cmd, "-r", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        Trees.assertSameTree(dir.resolve("src"), dir.resolve("dst"), Trees.Detail.MODE);
        Cli.Result engines = Cli.run(dir, Map.of(), cmd, "--list-engines");
        assertTrue(engines.out().lines().anyMatch(l -> l.startsWith("native ") && l.contains(" no ")), engines::toString);
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aFifoWithoutRecursionIsReadAsDataLikeGnuCp(String engine) throws Exception {
        Cli.Result mkfifo = Cli.run(dir, Map.of(), List.of("mkfifo", "pipe"));
        assertEquals(0, mkfifo.exit(), mkfifo::toString);
        // A writer that outlives the copy's open: 20 MiB, more than any one read.
        Process writer = new ProcessBuilder("bash", "-c", "head -c 20971520 /dev/zero | tr '\\0' 'z' > pipe")
                .directory(dir.toFile()).start();
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "pipe", "copy");
        writer.waitFor();
        assertEquals(0, r.exit(), r::toString);
        assertEquals(20 * 1024 * 1024, Files.size(dir.resolve("copy")));
        assertTrue(Files.isRegularFile(dir.resolve("copy")));
    }

    @Test
    void badJobCountsAreUsageErrors() throws Exception {
        for (String j : new String[] {"0", "-1", "100000", "x"}) {
            Cli.Result r = Cli.cpx(dir, "-j", j, "a", "b");
            assertEquals(1, r.exit(), r::toString);
            assertEquals(2, r.err().lines().count(), r::toString);
            assertTrue(r.err().endsWith("Try 'cpx --help' for more information.\n"), r::toString);
            assertFalse(r.err().contains("Exception"), r::toString);
        }
    }
}
