package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Trees built to hurt a copier, for both engines: deep, wide, looping, hard-linked. */
class HostileTreeTest {

    @TempDir
    Path dir;

    /** The 300,000-entry directory, made once for both engines (it takes minutes on a loaded machine). */
    @TempDir
    static Path wide;

    private static String bash(Path dir, String script) throws Exception {
        Cli.Result r = Cli.run(dir, Map.of(), List.of("bash", "-c", script));
        assertEquals(0, r.exit(), r::toString);
        return r.out().strip();
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void tenThousandLevelsDeepPastPathMax(String engine) throws Exception {
        // Made and removed with bash and rm: paths this long are beyond what java.nio.file resolves.
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cpx-deep");
        try {
            // mkdir -p walks down relative to each new directory, so it is not limited by PATH_MAX.
            bash(work, "mkdir -p src/$(printf 'd/%.0s' $(seq 10000))");
            Cli.Result r = Cli.cpx(work, "--engine=" + engine, "-r", "src", "dst");
            assertEquals(1, r.exit(), "paths past PATH_MAX are reported, as GNU cp reports them");
            assertTrue(r.err().contains(": File name too long"), () -> r.err().substring(0, Math.min(300, r.err().length())));
            assertFalse(r.err().contains("Exception"));
            // find walks relative to each directory, past PATH_MAX; every directory below the top is named d.
            String depth = "find %s -mindepth 1 -type d | wc -l";
            String copied = bash(work, String.format(depth, "dst"));
            if (Files.isExecutable(Cli.GNU_CP)) {
                bash(work, "cp -r src gnu 2>/dev/null; true");
                assertEquals(bash(work, String.format(depth, "gnu")), copied, "as deep as GNU cp gets");
            }
            assertTrue(Integer.parseInt(copied) > 2000, copied);
            assertEquals("10000", bash(work, String.format(depth, "src")), "the source is intact");
        } finally {
            Cli.run(Path.of("/tmp"), Map.of(), List.of("rm", "-rf", work.toString()));
        }
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aDirectoryOf300000Entries(String engine) throws Exception {
        Path src = wideDirectory();
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "-r", src.toString(), "dst");
        assertEquals(0, r.exit(), r::toString);
        Set<Path> names = new HashSet<>();
        try (Stream<Path> s = Files.list(dir.resolve("dst"))) {
            s.forEach(p -> names.add(p.getFileName()));
        }
        assertEquals(300_000, names.size());
        assertTrue(names.contains(Path.of("entry-1")) && names.contains(Path.of("entry-300000")));
    }

    private static synchronized Path wideDirectory() throws Exception {
        Path src = wide.resolve("src");
        if (!Files.isDirectory(src)) {
            Path made = Files.createDirectories(wide.resolve("making"));
            bash(made, "seq 300000 | sed 's/^/entry-/' | xargs touch");
            Files.move(made, src);
        }
        return src;
    }

    /**
     * With {@code -L}, links back up the tree and to themselves, copied anew and into an earlier copy
     * that has a file where the loop's copy would go: there GNU's check of the destination comes
     * before the loop's ("cannot overwrite non-directory ... with directory").
     */
    @ParameterizedTest(name = "engine={0}, {1}")
    @CsvSource({"native, new", "nio, new", "native, over a file", "nio, over a file"})
    void symbolicLinkLoopsWithDereference(String engine, String destination) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src/a/b"));
        Files.writeString(src.resolve("f"), "f");
        Files.createSymbolicLink(src.resolve("up"), Path.of("../.."));
        Files.createSymbolicLink(dir.resolve("src/self"), Path.of("self"));
        boolean overAFile = destination.equals("over a file");
        if (overAFile) {
            for (String d : List.of("dst", "gnu")) {
                Files.writeString(Files.createDirectories(dir.resolve(d + "/src/a/b")).resolve("up"), "a file\n");
            }
        }
        Cli.Result r = Cli.cpxAs("cp", dir, Map.of(), "--engine=" + engine, "-rL", "src", "dst");
        if (Files.isExecutable(Cli.GNU_CP)) {
            Cli.Result gnu = Cli.run(dir, Map.of(), List.of("cp"), "-rL", "src", "gnu");
            assertEquals(gnu.exit(), r.exit(), r::toString);
            assertEquals(gnu.err().replace("'gnu", "'dst").lines().sorted().toList(), r.err().lines().sorted().toList());
            Trees.assertSameTree(dir.resolve("gnu"), dir.resolve("dst"));
        } else {
            assertEquals(1, r.exit());
        }
        assertTrue(r.err().contains(overAFile
                ? "cannot overwrite non-directory 'dst/src/a/b/up' with directory 'src/a/b/up'"
                : "cannot copy cyclic symbolic link 'src/a/b/up'"), r::toString);
        if (overAFile) {
            assertEquals("a file\n", Files.readString(dir.resolve("dst/src/a/b/up")), "the file in the way is left");
        }
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aHardLinkFarmStaysOneInode(String engine) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Path first = Files.write(src.resolve("original"), Trees.randomBytes(100_000, 1));
        for (int d = 0; d < 40; d++) {
            Path sub = Files.createDirectories(src.resolve("d" + d));
            for (int i = 0; i < 50; i++) {
                Files.createLink(sub.resolve("link" + i), first);
            }
        }
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "-a", "-j", "8", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        Trees.assertSameTree(src, dir.resolve("dst"), Detail.MODE, Detail.MTIME);
        Set<Object> inodes = new HashSet<>();
        try (Stream<Path> walk = Files.walk(dir.resolve("dst"))) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                inodes.add(Files.getAttribute(p, "unix:ino"));
                assertEquals(2001, (Integer) Files.getAttribute(p, "unix:nlink"));
            }
        }
        assertEquals(1, inodes.size(), "2001 names, one inode");
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void namesThatBreakNaiveTools(String engine) throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        byte[] allBytes = new byte[254];
        for (int i = 0; i < allBytes.length; i++) {
            int b = i + 1;
            allBytes[i] = (byte) (b == '/' ? 'x' : b);
        }
        Files.writeString(Trees.child(src, allBytes), "every byte but NUL and /");
        Files.writeString(src.resolve(" leading and trailing space "), "s");
        Files.writeString(src.resolve("--"), "dashes");
        assumeTrue(Files.exists(Trees.child(src, allBytes)), "file system refuses such names");
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "-a", "--", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        Trees.assertSameTree(src, dir.resolve("dst"), Detail.MODE, Detail.MTIME);
    }
}
