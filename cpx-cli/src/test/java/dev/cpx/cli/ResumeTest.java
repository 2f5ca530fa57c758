package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.core.fs.TempNames;
import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A copy killed with SIGKILL in the middle of a large file, then finished with the same command plus
 * {@code --resume}: the result is identical to the source, the partial file is continued rather than
 * copied again, and DEST is still the copy (not DEST/SOURCE).
 */
class ResumeTest {

    private static final long BIG = 768L << 20;

    @TempDir
    Path dir;

    /** A large file of varied bytes, written quickly (a seeded pattern repeated with a counter). */
    private static void bigFile(Path p, long size) throws IOException {
        byte[] chunk = Trees.randomBytes(1 << 20, 42);
        try (OutputStream out = Files.newOutputStream(p)) {
            for (long written = 0, i = 0; written < size; written += chunk.length, i++) {
                chunk[0] = (byte) i;
                chunk[1] = (byte) (i >> 8);
                out.write(chunk, 0, (int) Math.min(chunk.length, size - written));
            }
        }
    }

    private Path source() throws IOException {
        Path src = Trees.generate(dir.resolve("src"));
        bigFile(src.resolve("a/zz-big.bin"), BIG);
        return src;
    }

    /** Starts the copy and SIGKILLs it once the big file's partial copy is part written; false if it finished first. */
    private boolean killInTheMiddle(List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(Cli.javaCommand("cpx"));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        Path partial = partialBigFile();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (p.isAlive() && System.nanoTime() < deadline) {
            long size = Files.exists(partial) ? Files.size(partial) : 0;
            if (size > (16L << 20) && size < BIG - (64L << 20)) {
                p.destroyForcibly();
                p.waitFor();
                return true;
            }
            Thread.sleep(2);
        }
        p.waitFor(60, TimeUnit.SECONDS);
        return false;
    }

    /** Where the copy of a/zz-big.bin is written: its temporary name, in the staging name of dst. */
    private Path partialBigFile() {
        return TempNames.of(TempNames.of(dir.resolve("dst")).resolve("a/zz-big.bin"));
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aKilledCopyIsFinishedByResume(String engine) throws Exception {
        Path src = source();
        List<String> args = List.of("--engine=" + engine, "-a", "src", "dst");
        boolean killed = false;
        for (int attempt = 0; attempt < 5 && !killed; attempt++) {
            deleteTree(dir.resolve("dst"));
            killed = killInTheMiddle(args);
        }
        assertTrue(killed, "could not kill the copy in the middle of the large file in 5 attempts");
        Path partial = partialBigFile();
        assertTrue(Files.exists(partial), "the partial large file is kept under its temporary name");
        long partialSize = Files.size(partial);
        Object partialInode = Files.getAttribute(partial, "unix:ino");
        // Nothing is under the final name: the copy is made under its staging name (see StagingTest).
        assertFalse(Files.exists(dir.resolve("dst"), LinkOption.NOFOLLOW_LINKS));

        List<String> resumed = new ArrayList<>(args);
        resumed.add(0, "--resume");
        Cli.Result r = Cli.cpx(dir, resumed.toArray(String[]::new));
        assertEquals(0, r.exit(), r::toString);
        Trees.assertSameTree(src, dir.resolve("dst"), Detail.MODE, Detail.MTIME, Detail.LINKS);
        assertEquals(partialInode, Files.getAttribute(dir.resolve("dst/a/zz-big.bin"), "unix:ino"),
                "the partial file (" + partialSize + " bytes) was continued, not made anew");
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aPartialFileThatDoesNotMatchIsCopiedAgain(String engine) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        bigFile(src.resolve("big"), 70L << 20);
        Path dst = Files.createDirectories(dir.resolve("dst"));
        // A partial copy whose end is wrong: never trusted.
        Path partial = TempNames.of(dst.resolve("big"));
        Files.write(partial, Files.readAllBytes(src.resolve("big")).length > 0 ? new byte[5 << 20] : new byte[0]);
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "-rT", "--resume", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        Trees.assertSameTree(src, dst);
        assertEquals(List.of(dst.resolve("big")), list(dst));
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void theLastWindowOfAPartialFileIsCopiedAgain(String engine) throws Exception {
        // A large file is copied in ranges at once, so a killed copy may have gaps in its last
        // 256 MiB (RangedCopy.WINDOW): those are never trusted, whatever the end looks like.
        Path src = Files.createDirectories(dir.resolve("src"));
        bigFile(src.resolve("big"), 300L << 20);
        Path dst = Files.createDirectories(dir.resolve("dst"));
        Path partial = TempNames.of(dst.resolve("big"));
        Files.copy(src.resolve("big"), partial);
        try (FileChannel ch = FileChannel.open(partial, StandardOpenOption.WRITE)) {
            ch.truncate(290L << 20);
            ch.write(ByteBuffer.allocate(10 << 20), 100L << 20); // a range not yet copied
        }
        Object inode = Files.getAttribute(partial, "unix:ino");
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "-rT", "--resume", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        Trees.assertSameTree(src, dst);
        assertEquals(inode, Files.getAttribute(dst.resolve("big"), "unix:ino"), "continued, not made anew");
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void linksAndSpecialFilesWithoutTheirAttributesAreFinished(String engine) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.createSymbolicLink(src.resolve("link"), Path.of("somewhere"));
        assertEquals(0, new ProcessBuilder("mkfifo", "-m", "0640", src.resolve("fifo").toString()).start().waitFor());
        Cli.Result first = Cli.cpx(dir, "--engine=" + engine, "-a", "src", "dst");
        assertEquals(0, first.exit(), first::toString);
        // As a copy killed between making them and setting their attributes leaves them:
        Path dst = dir.resolve("dst");
        assertEquals(0, new ProcessBuilder("touch", "-h", "-d", "@1000000000", dst.resolve("link").toString()).start().waitFor());
        Files.setAttribute(dst.resolve("fifo"), "unix:mode", 0600);
        Cli.Result again = Cli.cpx(dir, "--engine=" + engine, "-aT", "--resume", "src", "dst");
        assertEquals(0, again.exit(), again::toString);
        Trees.assertSameTree(src, dst, Detail.MODE, Detail.MTIME);
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void completeFilesAreNotCopiedAgain(String engine) throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Cli.Result first = Cli.cpx(dir, "--engine=" + engine, "-a", "src", "dst");
        assertEquals(0, first.exit(), first::toString);
        Path small = dir.resolve("dst/small.txt");
        Object inode = Files.getAttribute(small, "unix:ino");
        Object ctime = Files.getAttribute(small, "unix:ctime");
        Files.writeString(src.resolve("changed.txt"), "new since the first run");
        // The first run completed, so dst carries no marker: -T says dst is the copy, as for any cp.
        Cli.Result again = Cli.cpx(dir, "--engine=" + engine, "-avT", "--resume", "src", "dst");
        assertEquals(0, again.exit(), again::toString);
        assertEquals("'src/changed.txt' -> 'dst/changed.txt'\n", again.out(), "only the new file is copied");
        assertEquals(inode, Files.getAttribute(small, "unix:ino"));
        assertEquals(ctime, Files.getAttribute(small, "unix:ctime"), "a complete file is not touched");
        Trees.assertSameTree(src, dir.resolve("dst"), Detail.MODE, Detail.MTIME);
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void resumingACompletedCopyAgainChangesNothing(String engine) throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        assertEquals(0, Cli.cpx(dir, "--engine=" + engine, "-a", "src", "dst").exit());
        Cli.Result again = Cli.cpx(dir, "--engine=" + engine, "-av", "--resume", "src", "dst");
        assertEquals(0, again.exit(), again::toString);
        assertEquals("", again.out(), "nothing to do: dst is the complete copy");
        Trees.assertSameTree(src, dir.resolve("dst"), Detail.MODE, Detail.MTIME);
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aTargetDirectoryWithOtherContentKeepsGnusRule(String engine) throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Path backups = Files.createDirectories(dir.resolve("backups"));
        Files.writeString(backups.resolve("older-backup"), "something else");
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "-a", "--resume", "src", "backups");
        assertEquals(0, r.exit(), r::toString);
        Trees.assertSameTree(src, backups.resolve("src"), Detail.MODE, Detail.MTIME);
        assertEquals("something else", Files.readString(backups.resolve("older-backup")));
    }

    private static List<Path> list(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.toList();
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(p);
            }
        }
    }
}
