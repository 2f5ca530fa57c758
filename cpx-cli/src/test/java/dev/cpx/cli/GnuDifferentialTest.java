package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Copies the same trees with {@code /usr/bin/cp} and with the real cpx process (each engine) and
 * compares the results byte for byte, including {@code find -printf '%y %m %s %p'} (directory
 * sizes too), exit status and messages.
 */
class GnuDifferentialTest {

    @TempDir
    Path dir;

    @BeforeEach
    void needsGnuCp() {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp is not installed at /usr/bin/cp: differential tests skipped");
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void generatedTreeIsCopiedAsGnuCpCopiesIt(String engine) throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        // A directory large enough for ext4 to index it: its size shows the order entries were created in.
        Path big = Files.createDirectory(src.resolve("big-dir"));
        for (int i = 0; i < 900; i++) {
            Files.write(big.resolve("entry-number-" + i + ".txt"), Trees.randomBytes(i % 50, i));
        }
        Cli.Result gnu = Cli.gnu(dir, "-r", "src", "by-gnu");
        Cli.Result cpx = Cli.cpx(dir, "--engine=" + engine, "-r", "src", "by-cpx");
        assertEquals(gnu.exit(), cpx.exit(), cpx::toString);
        assertEquals(gnu.err(), cpx.err().replace("cpx: ", "cp: "));
        Trees.assertSameTree(dir.resolve("by-gnu"), dir.resolve("by-cpx"), Detail.MODE);
        assertEquals(find(dir.resolve("by-gnu")), find(dir.resolve("by-cpx")));
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void usrShareDocIsCopiedAsGnuCpCopiesIt(String engine) throws Exception {
        Path doc = Path.of("/usr/share/doc");
        assumeTrue(Files.isDirectory(doc), "/usr/share/doc is missing");
        Cli.Result gnu = Cli.gnu(dir, "-r", doc.toString(), "by-gnu");
        Cli.Result cpx = Cli.cpx(dir, "--engine=" + engine, "-r", doc.toString(), "by-cpx");
        assertEquals(gnu.exit(), cpx.exit(), cpx::toString);
        assertEquals(find(dir.resolve("by-gnu")), find(dir.resolve("by-cpx")));
        Trees.assertSameTree(dir.resolve("by-gnu"), dir.resolve("by-cpx"), Detail.MODE);
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void preservingCopyMatchesGnuCpDashA(String engine) throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Files.setAttribute(src.resolve("run.sh"), "unix:mode", 04755);
        Cli.Result gnu = Cli.gnu(dir, "-a", "src", "by-gnu");
        Cli.Result cpx = Cli.cpx(dir, "--engine=" + engine, "-a", "src", "by-cpx");
        assertEquals(gnu.exit(), cpx.exit(), cpx::toString);
        Trees.assertSameTree(dir.resolve("by-gnu"), dir.resolve("by-cpx"), Detail.MODE, Detail.MTIME, Detail.OWNER);
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void oneFileSystemCopiesTheMountPointButNotWhatIsMountedOnIt(String engine) throws Exception {
        Path gnuScene = Files.createDirectories(dir.resolve("gnu"));
        Path cpxScene = Files.createDirectories(dir.resolve("cpx"));
        List<Path> mounts = new java.util.ArrayList<>();
        try {
            for (Path scene : List.of(gnuScene, cpxScene)) {
                Path src = Scenes.standardTree(scene);
                Files.delete(src.resolve("abs-link"));
                Path mnt = Files.createDirectory(src.resolve("mnt"));
                Cli.Result mount = Cli.run(scene, java.util.Map.of(), List.of("mount", "-t", "tmpfs", "-o", "size=1m,mode=1777", "cpx-test", "src/mnt"));
                assumeTrue(mount.exit() == 0, "cannot mount a tmpfs here (needs root): -x is tested where it can be: " + mount.err());
                mounts.add(mnt);
                Files.writeString(mnt.resolve("on-the-other-file-system"), "not copied with -x");
            }
            Cli.Result gnu = Cli.run(gnuScene, java.util.Map.of(), List.of("cp"), "-rxv", "src", "dst");
            Cli.Result cpx = Cli.cpxAs("cp", cpxScene, java.util.Map.of(), "--engine=" + engine, "-rxv", "src", "dst");
            assertEquals(gnu.exit(), cpx.exit(), cpx::toString);
            assertEquals(gnu.err(), cpx.err());
            assertEquals(sorted(gnu.out()), sorted(cpx.out()));
            Trees.assertSameTree(gnuScene.resolve("dst"), cpxScene.resolve("dst"), Detail.MODE);
            assumeTrue(Files.isDirectory(cpxScene.resolve("dst/mnt")), "the mount point itself is copied");
            assertEquals(List.of(), list(cpxScene.resolve("dst/mnt")));
        } finally {
            for (Path m : mounts) {
                Cli.run(dir, java.util.Map.of(), List.of("umount", m.toString()));
            }
        }
    }

    private static String sorted(String text) {
        return text.lines().sorted().collect(Collectors.joining("\n"));
    }

    private static List<Path> list(Path d) throws IOException {
        try (var s = Files.list(d)) {
            return s.toList();
        }
    }

    /** {@code find . -printf '%y %m %s %p\n'}, sorted: what the README's acceptance check compares. */
    static String find(Path root) throws IOException, InterruptedException {
        Cli.Result r = Cli.run(root, java.util.Map.of(), List.of("find", ".", "-printf", "%y %m %s %p\\n"));
        assertEquals(0, r.exit(), r::toString);
        return Arrays.stream(r.out().split("\n")).sorted().collect(Collectors.joining("\n"));
    }

    static String read(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }
}
