package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.core.fs.TempNames;
import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The copy of a directory operand that cpx makes is made under its staging name ({@code .NAME.cpx-part}
 * next to it) and gets its final name only once complete: nothing is ever seen under the final path
 * before then. Interrupted (SIGINT, SIGTERM, SIGHUP) it says where what was copied is; killed (SIGKILL) it
 * leaves it there; a plain run again says so and changes nothing, and {@code --resume} finishes it.
 */
class StagingTest {

    @TempDir
    Path dir;

    private Path src;

    @BeforeEach
    void tree() throws IOException {
        src = dir.resolve("src");
        // Followed (-L) and read as data (--copy-contents), zz/zero never ends: the copy is surely still
        // running when the signal comes.
        Files.createSymbolicLink(Files.createDirectories(src.resolve("zz")).resolve("zero"), Path.of("/dev/zero"));
        for (int i = 0; i < 300; i++) {
            Files.write(Files.createDirectories(src.resolve("small/d" + i % 10)).resolve("f" + i), Trees.randomBytes(16 * 1024 + i, i));
        }
    }

    @AfterEach
    void unlink() throws IOException {
        Files.deleteIfExists(src.resolve("zz/zero"));
    }

    @ParameterizedTest(name = "SIG{0} engine={1}")
    @CsvSource({"INT,native", "TERM,nio", "HUP,native", "HUP,nio", "KILL,native", "KILL,nio"})
    void anInterruptedCopyIsNeverSeenUnderItsNameAndResumeFinishesIt(String signal, String engine) throws Exception {
        Path dst = dir.resolve("dst");
        Path staging = TempNames.of(dst);
        try (Running cpx = Running.start(dir, List.of(), Map.of(), false, "--engine=" + engine, "-j", "2", "-rL",
                "--copy-contents", "src", "dst")) {
            cpx.awaitWhileRunning("ten files to be copied", () -> files(staging) >= 10);
            assertFalse(Files.exists(dst, LinkOption.NOFOLLOW_LINKS), "nothing under the final name while the copy runs");
            cpx.signal(signal);
            Cli.Result r = cpx.result();
            assertEquals(signal.equals("INT") ? 130 : signal.equals("TERM") ? 143 : signal.equals("HUP") ? 129 : 137, r.exit(), r::toString);
            if (!signal.equals("KILL")) {
                assertTrue(r.err().contains("cpx: 'dst' is not complete: what was copied is in '.dst.cpx-part'"), r::toString);
            }
        }
        assertFalse(Files.exists(dst, LinkOption.NOFOLLOW_LINKS), "an interrupted copy keeps its staging name");
        assertTrue(Files.isDirectory(staging));

        Files.delete(src.resolve("zz/zero"));
        Cli.Result again = Cli.cpx(dir, "--engine=" + engine, "-rL", "--copy-contents", "src", "dst");
        assertEquals(1, again.exit(), again::toString);
        assertEquals("cpx: cannot create directory 'dst': the unfinished copy of an earlier run is in '.dst.cpx-part':"
                + " run the same command with --resume to finish it, or remove it\n", again.err());
        assertFalse(Files.exists(dst, LinkOption.NOFOLLOW_LINKS), "a plain run leaves the unfinished copy alone");

        Cli.Result resumed = Cli.cpx(dir, "--engine=" + engine, "-rL", "--copy-contents", "--resume", "src", "dst");
        assertEquals(0, resumed.exit(), resumed::toString);
        assertFalse(Files.exists(staging, LinkOption.NOFOLLOW_LINKS), "renamed into place");
        // (What was copied of the endless zz/zero before a SIGKILL stays: --resume adds, it never removes.)
        assertEquals(Trees.describe(src.resolve("small"), Detail.MODE), Trees.describe(dst.resolve("small"), Detail.MODE));
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aCopyIntoAnExistingDirectoryAppearsWhole(String engine) throws Exception {
        Files.delete(src.resolve("zz/zero"));
        Files.createDirectory(dir.resolve("into"));
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "-a", "src", "into/");
        assertEquals(0, r.exit(), r::toString);
        assertEquals(Trees.describe(src, Detail.MODE), Trees.describe(dir.resolve("into/src"), Detail.MODE));
        try (Stream<Path> s = Files.list(dir.resolve("into"))) {
            assertEquals(List.of(dir.resolve("into/src")), s.toList(), "no staging directory is left");
        }
    }

    /** Regular files under {@code root}, counted while they are being made. */
    private static long files(Path root) {
        if (!Files.isDirectory(root)) {
            return 0;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).count();
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
    }
}
