package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.testing.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The progress line: when it shows, what it says, and that it never garbles what is printed around it. */
class ProgressTest {

    /** As the launcher runs cpx with standard error on a terminal; the line shows at once. */
    static final List<String> STDERR_TTY = List.of("-Dcpx.stderr.tty=true", "-Dcpx.progress.delay=0");
    /** Both streams on one terminal. */
    static final List<String> BOTH_TTY = List.of("-Dcpx.stderr.tty=true", "-Dcpx.stdout.tty=true", "-Dcpx.progress.delay=0");

    /** One drawing of the progress line. */
    private static final Pattern BAR = Pattern.compile(
            "(?:\\[[#-]{10,20}\\]  )?\\s*(\\d+)%  (\\S+ \\S+)/(\\S+ \\S+)  (\\d+)/(\\d+) files  \\S+ \\S+/s  ETA \\S+.*");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void printsNothingWithoutATerminalLikeGnuCp(String engine) throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "-r", "src", "dst");
        assertEquals(new Cli.Result(0, "", ""), r);
        Trees.assertSameTree(src, dir.resolve("dst"));
    }

    @ParameterizedTest(name = "engine={0} -j {1}")
    @CsvSource({"native,1", "native,4", "nio,1", "nio,4"})
    void drawsProgressOnATerminalThenErasesItForTheSummary(String engine, int jobs) throws Exception {
        Path src = TreeFacts.manyFiles(Trees.generate(dir.resolve("src")), 600);
        TreeFacts.Counts c = TreeFacts.count(src);
        Cli.Result r = Running.run(dir, STDERR_TTY, Map.of(), false, "--engine=" + engine, "-j", "" + jobs, "-r", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        assertEquals("", r.out());
        List<String> bars = bars(r.err());
        assertFalse(bars.isEmpty(), r::toString);
        for (String bar : bars) {
            Matcher m = BAR.matcher(bar);
            assertTrue(m.matches() && Long.parseLong(m.group(4)) <= Long.parseLong(m.group(5)), bar);
        }
        // The last drawing, at the end, shows the totals.
        Matcher last = BAR.matcher(bars.get(bars.size() - 1));
        assertTrue(last.matches());
        assertEquals("100", last.group(1), bars.get(bars.size() - 1));
        assertEquals(c.files() + "/" + c.files(), last.group(4) + "/" + last.group(5));
        assertEquals(Units.bytes(c.bytes()), last.group(3));
        // What stays on the screen: the summary alone, the progress line erased.
        List<String> screen = Screen.render(r.err());
        assertEquals(2, screen.size(), () -> String.join("\n", screen));
        assertTrue(screen.get(0).startsWith("cpx: copied " + c.files() + " files"), screen::toString);
        assertEquals("", screen.get(1));
        Trees.assertSameTree(src, dir.resolve("dst"));
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void verboseLinesPrintWholeAboveTheProgressLine(String engine) throws Exception {
        Path src = TreeFacts.manyFiles(dir.resolve("src"), 3000);
        // Made last, so a single worker (which takes the last entry first) copies it first: the
        // progress line is up before the small files' lines come.
        try (var big = Files.newOutputStream(src.resolve("zbig"))) {
            byte[] block = Trees.randomBytes(1 << 20, 5);
            for (int i = 0; i < 256; i++) {
                big.write(block);
            }
        }
        Cli.Result plain = Cli.cpx(dir, "--engine=" + engine, "-rv", "src", "plain");
        Cli.Result r = Running.run(dir, BOTH_TTY, Map.of(), true, "--engine=" + engine, "-j", "1", "-rv", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        String merged = r.out();
        // The line was drawn between verbose lines, not only before or after them all.
        int lastVerbose = merged.lastIndexOf("' -> 'dst/");
        assertFalse(bars(merged.substring(0, lastVerbose)).isEmpty(), "no progress line among the -v lines");
        List<String> screen = new ArrayList<>(Screen.render(merged));
        assertEquals("", screen.remove(screen.size() - 1), "the progress line is erased at the end");
        String summary = screen.remove(screen.size() - 1);
        assertTrue(summary.startsWith("cpx: copied 3001 files"), summary);
        List<String> expected = plain.out().replace(" -> 'plain", " -> 'dst").lines().sorted().toList();
        assertEquals(expected, screen.stream().sorted().toList());
    }

    @Test
    void progressCanBeForcedWithoutATerminalAndTurnedOffOnOne() throws Exception {
        TreeFacts.manyFiles(dir.resolve("src"), 300);
        List<String> now = List.of("-Dcpx.progress.delay=0");
        Cli.Result forced = Running.run(dir, now, Map.of(), false, "--progress", "-r", "src", "a");
        assertEquals(0, forced.exit(), forced::toString);
        assertFalse(bars(forced.err()).isEmpty(), forced::toString);
        assertEquals(List.of(""), Screen.render(forced.err()), "no summary without a terminal");

        for (String off : new String[] {"--no-progress", "--progress=never", "-q"}) {
            Cli.Result r = Running.run(dir, STDERR_TTY, Map.of(), false, off, "-r", "src", "b" + off);
            assertEquals(0, r.exit(), r::toString);
            assertFalse(r.err().contains("\r"), off + ": " + r);
            if (off.equals("-q")) {
                assertEquals("", r.err());
            } else {
                assertTrue(r.err().startsWith("cpx: copied 300 files"), off + ": " + r);
            }
        }
        // --no-progress wins over --progress, whatever the order.
        Cli.Result both = Running.run(dir, now, Map.of(), false, "--no-progress", "--progress", "-r", "src", "c");
        assertEquals(new Cli.Result(0, "", ""), both);
    }

    @Test
    void theProgressLibraryIsLoadedOnlyWhenTheLineShows() throws Exception {
        Files.writeString(dir.resolve("small"), "x");
        TreeFacts.manyFiles(dir.resolve("src"), 300);
        Path log = dir.resolve("classes.log");
        String logging = "-Xlog:class+load=info:file=" + log;
        Running.run(dir, List.of(logging), Map.of(), false, "-r", "src", "a");
        String loaded = Files.readString(log);
        assertTrue(loaded.contains("dev.cpx.cli.CpxCommand"), "the log lists loaded classes");
        assertFalse(loaded.contains("me.tongfei"), "no progress: the bar library is not loaded");
        assertFalse(loaded.contains("org.jline"), "no progress: JLine is not loaded");
        // Asked for, but the copy is over before the line would show: still nothing loaded.
        Running.run(dir, List.of(logging), Map.of(), false, "--progress", "small", "b");
        assertFalse(Files.readString(log).contains("me.tongfei"), "a quick copy shows no line");
        Running.run(dir, List.of(logging, "-Dcpx.progress.delay=0"), Map.of(), false, "--progress", "-r", "src", "c");
        assertTrue(Files.readString(log).contains("me.tongfei.progressbar.ProgressBar "), "shown: loaded");
    }

    /** The progress lines drawn in {@code stderr}: the text after each carriage return that is not an erasure. */
    static List<String> bars(String stderr) {
        return Arrays.stream(stderr.split("\r")).map(String::stripTrailing)
                .filter(s -> BAR.matcher(s).matches()).toList();
    }
}
