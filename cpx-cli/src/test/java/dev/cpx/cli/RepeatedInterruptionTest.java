package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.core.fs.TempNames;
import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A long copy (many small files and one large file) stopped again and again at random moments by
 * SIGINT, SIGTERM, SIGHUP and SIGKILL, each time restarted with --resume: every stop leaves only complete
 * files under their final names, and the last run gives a tree identical to the source.
 */
class RepeatedInterruptionTest {

    @TempDir
    Path dir;

    private Path source() throws IOException {
        Path src = Files.createDirectories(dir.resolve("src"));
        for (int d = 0; d < 30; d++) {
            Path sub = Files.createDirectories(src.resolve("d" + d));
            for (int i = 0; i < 100; i++) {
                Files.write(sub.resolve("f" + i), Trees.randomBytes(i * 37, d * 1000 + i));
            }
        }
        byte[] chunk = Trees.randomBytes(1 << 20, 7);
        try (OutputStream out = Files.newOutputStream(src.resolve("large.bin"))) {
            for (int i = 0; i < 600; i++) {
                chunk[0] = (byte) i;
                out.write(chunk);
            }
        }
        Scenes.fixTimes(src);
        return src;
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void stoppedAgainAndAgainThenFinished(String engine) throws Exception {
        Path src = source();
        SourceGuard guard = SourceGuard.of(src);
        Random random = new Random(engine.hashCode());
        List<String> signals = List.of("INT", "TERM", "KILL", "HUP", "KILL", "TERM");
        int stopped = 0;
        for (String signal : signals) {
            try (Running cpx = Running.start(dir, List.of(), Map.of(), false,
                    "--engine=" + engine, "-a", "--resume", "-j", "3", "src", "dst")) {
                // Stopped once a random number more files are in, whatever the machine's speed.
                // (Files are counted where the copy is made until it is complete: dst's staging name.)
                Path staging = TempNames.of(dir.resolve("dst"));
                long target = completeFiles(staging) + 1 + random.nextInt(400);
                if (!runsUntil(cpx, () -> completeFiles(staging) >= target || Files.exists(dir.resolve("dst")))) {
                    break; // finished before this signal: the loop has done its job
                }
                cpx.signal(signal);
                Cli.Result r = cpx.result();
                int expected = switch (signal) {
                    case "INT" -> 130;
                    case "TERM" -> 143;
                    case "HUP" -> 129;
                    default -> 137;
                };
                if (r.exit() == 0) {
                    break; // the signal came as it finished
                }
                assertEquals(expected, r.exit(), () -> "SIG" + signal + ": " + r);
                stopped++;
            }
            // Nothing under the final name until the whole tree is complete.
            assertOnlyCompleteFiles(src, dir.resolve("dst"));
        }
        Cli.Result last = Cli.cpx(dir, "--engine=" + engine, "-a", "--resume", "src", "dst");
        assertEquals(0, last.exit(), last::toString);
        Trees.assertSameTree(src, dir.resolve("dst"), Detail.MODE, Detail.MTIME);
        try (Stream<Path> walk = Files.walk(dir.resolve("dst"))) {
            assertEquals(List.of(), walk.filter(p -> TempNames.isTemp(p.getFileName())).toList(), "no partial file is left");
        }
        guard.assertUnchanged();
        assertTrue(stopped >= 1, "the copy was stopped at least once");
    }

    /** Waits until {@code condition} holds while cpx runs; false when cpx ended first. */
    private static boolean runsUntil(Running cpx, Running.Check condition) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(5);
        while (cpx.isAlive()) {
            if (condition.holds()) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("cpx neither finished nor got further in five minutes");
            }
            Thread.sleep(5);
        }
        return false;
    }

    /** Regular files under {@code dst} with their final names. */
    private static long completeFiles(Path dst) throws IOException {
        if (!Files.isDirectory(dst)) {
            return 0;
        }
        try (Stream<Path> walk = Files.walk(dst)) {
            return walk.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    && !TempNames.isTemp(p.getFileName())).count();
        } catch (java.io.UncheckedIOException e) {
            return 0; // an entry was renamed while being looked at: ask again
        }
    }

    private static void assertOnlyCompleteFiles(Path src, Path dst) throws IOException {
        if (!Files.exists(dst)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dst)) {
            for (Path p : walk.filter(Files::isRegularFile).filter(p -> !TempNames.isTemp(p.getFileName())).toList()) {
                Path original = src.resolve(dst.relativize(p));
                assertEquals(Files.size(original), Files.size(p), () -> "incomplete under its final name: " + p);
            }
        }
    }
}
