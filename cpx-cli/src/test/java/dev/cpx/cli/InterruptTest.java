package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.testing.Trees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ctrl-C and {@code kill} during a copy, sent to the real process: it stops starting files, leaves
 * no incomplete file under its final name, reports, hints at {@code --resume}, and exits 130 or
 * 143; a second Ctrl-C ends it at once.
 */
class InterruptTest {

    private static final String HINT = "cpx: interrupted; run the same command with --resume to finish";

    /** A source tree shared by the tests (it is only read): many small files and two large ones. */
    @TempDir
    static Path shared;

    private static Path src;

    @TempDir
    Path dir;

    @BeforeAll
    static void makeTree() throws IOException {
        src = shared.resolve("src");
        // Followed (-L) and read as data (--copy-contents), zz/zero never ends: the copy is surely still
        // running when the signal comes, with any number of workers. It is the last operand, so a single
        // worker, which copies in GNU cp's order, gets to it last (the inode order of the directories,
        // which decides the order inside one operand, is the file system's choice).
        Files.createSymbolicLink(Files.createDirectories(src.resolve("zz")).resolve("zero"), Path.of("/dev/zero"));
        Path big = Files.createDirectories(src.resolve("big"));
        for (int i = 0; i < 2; i++) {
            Files.write(big.resolve("b" + i), Trees.randomBytes(96 << 20, 1000 + i));
        }
        for (int i = 0; i < 200; i++) {
            Path d = Files.createDirectories(src.resolve("small/d" + i % 10));
            Files.write(d.resolve("f" + i), Trees.randomBytes(64 * 1024 + i, i));
        }
    }

    @AfterAll
    static void removeLink() throws IOException {
        // JUnit would warn about a link leading out of its temporary directory.
        Files.deleteIfExists(src.resolve("zz/zero"));
    }

    @ParameterizedTest(name = "SIG{0} engine={1} -j {2}")
    @CsvSource({"INT,native,1", "INT,native,4", "INT,nio,1", "INT,nio,4", "TERM,native,4", "TERM,nio,1", "HUP,native,4", "HUP,nio,1"})
    void theFirstSignalStopsTheCopyCleanlyAndReports(String signal, String engine, int jobs) throws Exception {
        Path dst = Files.createDirectory(dir.resolve("dst"));
        try (Running cpx = Running.start(dir, List.of(), Map.of(), false, "--engine=" + engine, "-j", "" + jobs,
                "--summary", "--json", "-rL", "--copy-contents", src.resolve("big").toString(),
                src.resolve("small").toString(), src.resolve("zz").toString(), "dst")) {
            cpx.awaitWhileRunning("ten files to be copied", () -> completeFiles(dst) >= 10);
            cpx.signal(signal);
            Cli.Result r = cpx.result();
            int status = signal.equals("INT") ? 130 : signal.equals("HUP") ? 129 : 143;
            assertEquals(status, r.exit(), r::toString);
            List<String> lines = TreeFacts.lines(r.err());
            assertEquals(HINT, lines.get(lines.size() - 1), r::toString);
            String summary = lines.get(lines.size() - 2);
            assertTrue(summary.startsWith("cpx: interrupted after "), summary);
            long complete = checkNothingIncompleteUnderAFinalName(src, dst);
            assertTrue(complete >= 10, "files copied before the signal: " + complete);
            assertTrue(summary.contains(": copied " + complete + (complete == 1 ? " file " : " files ")), summary + " vs " + complete);
            assertFalse(Files.exists(dst.resolve("zz/zero"), LinkOption.NOFOLLOW_LINKS), "the endless file is never complete");
            Map<String, Object> doc = Json.object(r.out());
            assertEquals(List.of("interrupted", (long) status, "SIG" + signal, complete),
                    List.of(doc.get("status"), doc.get("exitStatus"), doc.get("signal"), doc.get("files")));
        }
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void onATerminalTheLineNamesTheLongFileThenGivesWayToTheSummary(String engine) throws Exception {
        try (Running cpx = Running.start(dir, ProgressTest.STDERR_TTY, Map.of(), false, "--engine=" + engine,
                "/dev/zero", "zeros")) {
            // A file copying for over a second is named on the line, with the bytes copied so far.
            cpx.awaitWhileRunning("the file in flight to be named", () -> cpx.err().contains("'zero' "));
            cpx.signal("INT");
            Cli.Result r = cpx.result();
            assertEquals(130, r.exit(), r::toString);
            assertTrue(ProgressTest.bars(r.err()).stream().anyMatch(b -> b.matches(".* 'zero' \\d+(\\.\\d)? [KMG]?i?B")),
                    r::toString);
            List<String> screen = Screen.render(r.err());
            assertEquals(3, screen.size(), () -> String.join("\n", screen));
            assertTrue(screen.get(0).startsWith("cpx: interrupted after "), screen::toString);
            assertTrue(screen.get(0).endsWith("; 1 skipped, 0 failed"), screen::toString);
            assertEquals(HINT, screen.get(1));
            assertEquals("", screen.get(2));
            try (Stream<Path> left = Files.list(dir)) {
                assertEquals(List.of(), left.toList(), "nothing is left of the unfinished file");
            }
        }
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aSecondCtrlCEndsItAtOnce(String engine) throws Exception {
        Path fifo = dir.resolve("fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
        // Opening a FIFO that nobody writes blocks in the kernel: a file in flight that cannot be abandoned.
        try (Running cpx = Running.start(dir, List.of(), Map.of(), false, "--engine=" + engine, "--summary",
                "fifo", "out")) {
            cpx.awaitWhileRunning("the copy to block on the FIFO", () -> blockedOnFifo(cpx.pid()));
            cpx.signal("INT");
            // Once the signal is no longer pending, the JVM has taken it; cpx must still wait on the FIFO.
            cpx.awaitWhileRunning("the first SIGINT to be taken", () -> !signalPending(cpx.pid(), 2));
            assertTrue(cpx.isAlive() && blockedOnFifo(cpx.pid()), "the first Ctrl-C waits for the file in flight");
            cpx.signal("INT");
            Cli.Result r = cpx.awaitEnd(10);
            assertNotNull(r, "the second Ctrl-C ends cpx at once");
            assertEquals(130, r.exit(), r::toString);
            assertEquals("\n", r.err(), "no summary: it did not wait");
            assertFalse(Files.exists(dir.resolve("out")));
        }
    }

    /**
     * Ctrl-\ (SIGQUIT) ends the copy as it ends GNU cp: at once, by the signal, with nothing on
     * standard output (the JVM would print its threads' stacks there and go on copying), and nothing
     * half-written left.
     */
    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void ctrlBackslashEndsTheCopyAsItEndsCp(String engine) throws Exception {
        Path fifo = dir.resolve("fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
        Process cp = new ProcessBuilder("/usr/bin/env", "--default-signal=QUIT", "/usr/bin/cp", "fifo", "by-cp")
                .directory(dir.toFile()).redirectErrorStream(true).start();
        awaitBlockedOnFifo(cp.pid());
        assertEquals(0, new ProcessBuilder("kill", "-QUIT", Long.toString(cp.pid())).inheritIO().start().waitFor());
        assertTrue(cp.waitFor(10, java.util.concurrent.TimeUnit.SECONDS), "GNU cp ends");
        String cpOutput = new String(cp.getInputStream().readAllBytes());
        assertEquals(128 + 3, cp.exitValue(), "GNU cp is ended by SIGQUIT: " + cpOutput);
        try (Running cpx = Running.start(dir, List.of(), Map.of(), false, "--engine=" + engine, "fifo", "out")) {
            cpx.awaitWhileRunning("the copy to block on the FIFO", () -> blockedOnFifo(cpx.pid()));
            cpx.signal("QUIT");
            Cli.Result r = cpx.awaitEnd(10);
            assertNotNull(r, "SIGQUIT ends cpx at once");
            assertEquals(cp.exitValue(), r.exit(), r::toString);
            assertEquals(cpOutput, r.out() + r.err(), "no thread dump, no message: as GNU cp");
            assertFalse(Files.exists(dir.resolve("out")));
            assertFalse(Files.exists(dir.resolve("by-cp")));
        }
    }

    private static void awaitBlockedOnFifo(long pid) throws IOException, InterruptedException {
        for (int i = 0; i < 1000 && !blockedOnFifo(pid); i++) {
            Thread.sleep(10);
        }
        assertTrue(blockedOnFifo(pid), "blocked opening the FIFO");
    }

    /** Regular files under {@code root} with their final names (not {@code .NAME.cpx-part}). */
    private static long completeFiles(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return 0;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                    && !p.getFileName().toString().endsWith(".cpx-part")).count();
        } catch (UncheckedIOException e) {
            return 0; // an entry was renamed while being looked at: ask again
        }
    }

    /** Whether a thread of the process waits for a FIFO's other end ({@code wait_for_partner} in the kernel). */
    /** Whether signal {@code number} is pending for the process or one of its threads ({@code /proc/PID/task/*\/status}). */
    private static boolean signalPending(long pid, int number) throws IOException {
        long bit = 1L << (number - 1);
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    for (String line : Files.readAllLines(t.resolve("status"))) {
                        if ((line.startsWith("SigPnd:") || line.startsWith("ShdPnd:"))
                                && (Long.parseUnsignedLong(line.substring(7).trim(), 16) & bit) != 0) {
                            return true;
                        }
                    }
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        }
        return false;
    }

    private static boolean blockedOnFifo(long pid) throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    if (Files.readString(t.resolve("wchan")).contains("wait_for_partner")) {
                        return true;
                    }
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        }
        return false;
    }

    /**
     * {@code rel} with each directory's staging name ({@code .NAME.cpx-part}, where a new tree is made
     * until it is complete: see StagingTest) as its final name.
     */
    static Path unstaged(Path rel) {
        Path out = null;
        for (int i = 0; i < rel.getNameCount(); i++) {
            String n = rel.getName(i).toString();
            if (i < rel.getNameCount() - 1 && n.startsWith(".") && n.endsWith(".cpx-part")) {
                n = n.substring(1, n.length() - ".cpx-part".length());
            }
            out = out == null ? Path.of(n) : out.resolve(n);
        }
        return out;
    }

    /**
     * Every regular file under {@code copy} with a final name has its source's size and content;
     * only temporary files ({@code .NAME.cpx-part}) may be shorter. Returns the complete files.
     */
    static long checkNothingIncompleteUnderAFinalName(Path source, Path copy) throws IOException {
        long complete = 0;
        if (!Files.exists(copy)) {
            return 0;
        }
        try (Stream<Path> walk = Files.walk(copy)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                String name = p.getFileName().toString();
                Path rel = unstaged(copy.relativize(p));
                if (name.startsWith(".") && name.endsWith(".cpx-part")) {
                    Path original = source.resolve(rel).resolveSibling(name.substring(1, name.length() - ".cpx-part".length()));
                    assertTrue(Files.size(p) <= Files.size(original), p::toString);
                    continue;
                }
                Path original = source.resolve(rel);
                assertEquals(Files.size(original), Files.size(p), () -> "incomplete under its final name: " + p);
                assertEquals(-1, Files.mismatch(original, p), () -> "different content: " + p);
                complete++;
            }
        }
        return complete;
    }
}
