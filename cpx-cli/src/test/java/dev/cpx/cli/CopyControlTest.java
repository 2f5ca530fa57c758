package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import dev.cpx.testing.Unprivileged;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** --exclude, --dry-run, --verify and --fsync on real trees with the real command, for both engines. */
class CopyControlTest {

    @TempDir
    Path dir;

    private Path project() throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Scenes.file(src.resolve("main.c"), "int main;\n");
        Scenes.file(src.resolve("build/out.o"), "object");
        Scenes.file(src.resolve("node_modules/x/index.js"), "js");
        Scenes.file(src.resolve("docs/a.log"), "log");
        Scenes.file(src.resolve("docs/readme"), "readme");
        Scenes.file(src.resolve("deep/node_modules"), "a file named like the excluded directory");
        Scenes.file(src.resolve("keep.log.txt"), "not a log");
        return src;
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void excludesByNameByPathAndDirectoriesOnly(String engine) throws Exception {
        project();
        Path patterns = Scenes.file(dir.resolve("patterns"), "# comment\n\nbuild\n*.log\n");
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "-r", "--exclude-from=patterns", "-e", "node_modules/",
                "--exclude", "docs/readme", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        List<String> copied = new ArrayList<>(Trees.describe(dir.resolve("dst")).keySet());
        assertEquals(List.of(".", "deep", "deep/node_modules", "docs", "keep.log.txt", "main.c"), copied);
    }

    @Test
    void anExcludedDirectoryIsNeverRead() throws Exception {
        // The unprivileged user cannot read the excluded directory: reading it would be an error.
        project();
        Path secret = Files.createDirectories(dir.resolve("src/secret/inner"));
        Scenes.file(secret.resolve("data"), "x");
        Files.setAttribute(dir, "unix:mode", 0755);
        Unprivileged.own(dir);
        Files.setAttribute(dir.resolve("src/secret"), "unix:mode", 0);
        List<String> cmd = new ArrayList<>(Unprivileged.prefix());
        cmd.addAll(Cli.stagedJavaCommand("cpx"));
        Cli.Result pruned = Cli.run(dir, Map.of(), cmd, "-r", "-e", "secret", "src", "dst");
        assertEquals(0, pruned.exit(), pruned::toString);
        assertEquals("", pruned.err());
        Cli.Result walked = Cli.run(dir, Map.of(), cmd, "-r", "src", "dst2");
        assertEquals(1, walked.exit(), "without the exclude the directory is read and fails: " + walked);
        assertTrue(walked.err().contains("cannot access 'src/secret'"), walked::toString);
    }

    @Test
    void aMalformedPatternIsAUsageError() throws Exception {
        project();
        Cli.Result r = Cli.cpx(dir, "-r", "-e", "[abc", "src", "dst");
        assertEquals(1, r.exit(), r::toString);
        assertEquals(2, r.err().lines().count(), r::toString);
        assertTrue(r.err().startsWith("cpx: invalid exclude pattern '[abc'"), r::toString);
        assertFalse(Files.exists(dir.resolve("dst")));
        Cli.Result missing = Cli.cpx(dir, "-r", "--exclude-from=nope", "src", "dst");
        assertEquals(1, missing.exit());
        assertTrue(missing.err().startsWith("cpx: cannot read exclude file 'nope': No such file or directory"), missing::toString);
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void dryRunTouchesNothing(String engine) throws Exception {
        project();
        Path dst = Files.createDirectories(dir.resolve("dst"));
        Scenes.file(dst.resolve("src/main.c"), "old content\n");
        Scenes.fixTimes(dir);
        var before = Trees.describe(dir, Detail.MODE, Detail.MTIME, Detail.LINKS);
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "-r", "--dry-run", "--backup", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        assertEquals(before, Trees.describe(dir, Detail.MODE, Detail.MTIME, Detail.LINKS));
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.contains("would overwrite 'dst/src/main.c' with 'src/main.c' (backup: 'dst/src/main.c~')"), r::toString);
        assertTrue(lines.contains("would create directory 'dst/src/build' from 'src/build'"), r::toString);
        assertTrue(lines.contains("would copy 'src/build/out.o' -> 'dst/src/build/out.o'"), r::toString);
        assertTrue(lines.get(lines.size() - 1).startsWith("dry run: would copy 7 files"), r::toString);
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void verifiedAndSyncedCopiesAreExact(String engine) throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "-a", "--verify", "--fsync", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        Trees.assertSameTree(src, dir.resolve("dst"), Detail.MODE, Detail.MTIME);
    }

    @Test
    void verifyCatchesAnEngineThatCorruptsData() throws Exception {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        PluginJars.build(Files.createDirectories(dir.resolve("build")), plugins.resolve("corrupting.jar"),
                Map.of("test.corrupt.CorruptingEngine", """
                        package test.corrupt;

                        import dev.cpx.spi.*;
                        import dev.cpx.spi.support.*;
                        import java.io.IOException;
                        import java.nio.ByteBuffer;

                        /** Copies, then flips the first byte of the target: the kind of fault --verify is for. */
                        public final class CorruptingEngine implements CopyEngine {
                            public String id() { return "corrupting"; }
                            public String description() { return "test engine that corrupts the first byte"; }
                            public Availability availability() { return Availability.ok(); }
                            public long copy(CopyRequest request) throws IOException {
                                long n = BufferedCopy.copy(request);
                                ByteBuffer b = ByteBuffer.allocate(1);
                                request.source().read(b, 0);
                                b.put(0, (byte) (b.get(0) ^ 0xff)).rewind();
                                BufferedCopy.writeFully(request.target(), b, 0);
                                return n;
                            }
                        }
                        """), List.of("test.corrupt.CorruptingEngine"));
        Scenes.file(dir.resolve("src/a"), "hello");
        Scenes.file(dir.resolve("src/b"), "world");
        Cli.Result unverified = Cli.cpx(dir, "--plugin-path=" + plugins, "--engine=corrupting", "-r", "src", "plain");
        assertEquals(0, unverified.exit(), "without --verify the corruption goes unseen: " + unverified);
        Cli.Result r = Cli.cpx(dir, "--plugin-path=" + plugins, "--engine=corrupting", "-r", "--verify", "src", "dst");
        assertEquals(1, r.exit(), r::toString);
        assertEquals(List.of("cpx: verification failed: 'dst/a' differs from 'src/a'",
                "cpx: verification failed: 'dst/b' differs from 'src/b'"), r.err().lines().sorted().toList());
        assertEquals(List.of(), Files.list(dir.resolve("dst")).toList(), "a copy that failed verification never gets its name");
    }

    @Test
    void fsyncSyncsFilesAndDirectories() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/strace")), "strace is not installed: fsync calls not counted");
        Path src = Files.createDirectories(dir.resolve("src/sub"));
        Scenes.file(src.resolve("f"), "data");
        Scenes.file(dir.resolve("src/g"), "more");
        List<String> cmd = new ArrayList<>(List.of("strace", "-f", "-qq", "-e", "trace=fsync,fdatasync", "-o", "trace.txt"));
        cmd.addAll(Cli.javaCommand("cpx"));
        Cli.Result r = Cli.run(dir, Map.of(), cmd, "-r", "--fsync", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        long syncs = Files.readAllLines(dir.resolve("trace.txt"), StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains("fsync(") || l.contains("fdatasync(")).count();
        // Two files, two directories, and the directory the copy was made in.
        assertTrue(syncs >= 5, "expected at least 5 syncs, saw " + syncs);
        assertArrayEquals("data".getBytes(StandardCharsets.US_ASCII), Files.readAllBytes(dir.resolve("dst/sub/f")));
    }
}
