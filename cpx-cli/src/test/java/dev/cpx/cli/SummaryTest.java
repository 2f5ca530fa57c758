package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.testing.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The summary at the end: when it shows, that its counts are the tree's, and that no failure is hidden. */
class SummaryTest {

    private static final Pattern TOTALS = Pattern.compile(
            "cpx: copied (\\d+) files? \\((.+?)\\), (\\d+) director(?:y|ies), (\\d+) symlinks? in [0-9.]+ (?:s|min \\d+ s) "
                    + "\\(.+/s\\); (\\d+) skipped, (\\d+) failed(.*)");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "engine={0} -j {1}")
    @CsvSource({"native,1", "native,4", "nio,1", "nio,4"})
    void countsEveryKindOfEntryOfTheTree(String engine, int jobs) throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        TreeFacts.Counts c = TreeFacts.count(src);
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "-j", "" + jobs, "--summary", "-r", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        assertEquals("", r.out());
        List<String> lines = TreeFacts.lines(r.err());
        assertEquals(1, lines.size(), r::toString);
        Matcher m = TOTALS.matcher(lines.get(0));
        assertTrue(m.matches(), lines.get(0));
        assertEquals(List.of("" + c.files(), Units.bytes(c.bytes()), "" + c.directories(), "" + c.symlinks(), "0", "0", ""),
                List.of(m.group(1), m.group(2), m.group(3), m.group(4), m.group(5), m.group(6), m.group(7)));
    }

    @Test
    void showsOnATerminalUnlessQuietAndNeverWithoutOneUnlessAsked() throws Exception {
        Files.writeString(dir.resolve("a"), "x");
        List<String> tty = List.of("-Dcpx.stderr.tty=true");
        assertTrue(Running.run(dir, tty, Map.of(), false, "a", "b1").err().startsWith("cpx: copied 1 file (1 B), 0 directories"));
        assertEquals(new Cli.Result(0, "", ""), Running.run(dir, tty, Map.of(), false, "-q", "a", "b2"));
        assertEquals(new Cli.Result(0, "", ""), Running.run(dir, tty, Map.of(), false, "--no-summary", "a", "b3"));
        assertEquals(new Cli.Result(0, "", ""), Running.run(dir, tty, Map.of(), false, "--summary=never", "a", "b4"));
        assertEquals(new Cli.Result(0, "", ""), Cli.cpx(dir, "a", "b5"));
        assertTrue(Cli.cpx(dir, "--summary=always", "a", "b6").err().startsWith("cpx: copied 1 file"));
        // -q silences the summary, never an error.
        Cli.Result failed = Running.run(dir, tty, Map.of(), false, "-q", "missing", "b7");
        assertEquals(new Cli.Result(1, "", "cpx: cannot stat 'missing': No such file or directory\n"), failed);
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void listsEveryFailureWithItsReason(String engine) throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        // Directories where the copies of five files would go: each of those files fails.
        List<String> blocked = List.of("small.txt", "empty", "run.sh", "a/big.bin", "a/b/c/deep.bin");
        for (String b : blocked) {
            Files.createDirectories(dir.resolve("dst").resolve(b));
        }
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "--summary", "-rT", "src", "dst");
        assertEquals(1, r.exit(), r::toString);
        List<String> expected = new ArrayList<>();
        for (String b : blocked) {
            expected.add("cannot overwrite directory 'dst/" + b + "' with non-directory");
        }
        List<String> lines = TreeFacts.lines(r.err());
        // Reported as they happen (GNU's lines), then again in the summary.
        List<String> immediate = lines.subList(0, blocked.size());
        assertEquals(expected.stream().map(e -> "cpx: " + e).sorted().toList(), immediate.stream().sorted().toList());
        Matcher m = TOTALS.matcher(lines.get(blocked.size()));
        assertTrue(m.matches(), r::toString);
        assertEquals("5", m.group(6));
        assertEquals(":", m.group(7));
        assertEquals(immediate.stream().map(l -> "  " + l.substring("cpx: ".length())).toList(),
                lines.subList(blocked.size() + 1, lines.size()));
        assertEquals(Files.readString(src.resolve("private")), Files.readString(dir.resolve("dst/private")), "the rest copied");
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aLongListOfFailuresGoesToAFileTheSummaryNames(String engine) throws Exception {
        Files.writeString(dir.resolve("real"), "r");
        Path into = Files.createDirectory(dir.resolve("into"));
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        List<String> args = new ArrayList<>(List.of("--engine=" + engine, "--summary"));
        for (int i = 0; i < 45; i++) {
            args.add("missing" + i);
        }
        args.addAll(List.of("real", "into"));
        Cli.Result r = Cli.cpxAs("cpx", dir, Map.of("TMPDIR", tmp.toString()), args.toArray(String[]::new));
        assertEquals(1, r.exit(), r::toString);
        assertEquals("r", Files.readString(into.resolve("real")));
        List<String> lines = TreeFacts.lines(r.err());
        List<String> immediate = lines.subList(0, 45);
        List<Path> files;
        try (var list = Files.list(tmp)) {
            files = list.toList();
        }
        assertEquals(1, files.size(), files::toString);
        Path listed = files.get(0);
        assertTrue(listed.getFileName().toString().matches("cpx-failures-\\d+-\\d+\\.txt"), listed::toString);
        Matcher m = TOTALS.matcher(lines.get(45));
        assertTrue(m.matches(), r::toString);
        assertEquals("45", m.group(6));
        assertEquals("; all 45 failures are listed in '" + listed + "', the first 20:", m.group(7));
        assertEquals(immediate.subList(0, 20).stream().map(l -> "  " + l.substring(5)).toList(), lines.subList(46, lines.size()));
        // The file has every failure, as reported.
        assertEquals(immediate, Files.readAllLines(listed));
        for (int i = 0; i < 45; i++) {
            assertTrue(immediate.contains("cpx: cannot stat 'missing" + i + "': No such file or directory"), "missing" + i);
        }
    }
}
