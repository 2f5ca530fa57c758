package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.core.fs.TempNames;
import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import dev.cpx.testing.Unprivileged;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Faults on real file systems, for both engines. Under each: the source is never changed (hashed
 * before and after), no file under its final name is incomplete, each failure names its path and the
 * system's reason, everything else is copied, and the exit status says what happened.
 */
class FaultInjectionTest {

    @TempDir
    Path dir;

    /** Every regular file under {@code copy} with a final name has its source's exact content. */
    private static void assertNoIncompleteFile(Path source, Path copy) throws IOException {
        if (!Files.exists(copy)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(copy)) {
            for (Path p : walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).toList()) {
                if (TempNames.isTemp(p.getFileName())) {
                    continue; // a partial file kept for --resume, under a name that says so
                }
                Path original = source.resolve(copy.relativize(p));
                assertArrayEquals(Files.readAllBytes(original), Files.readAllBytes(p), () -> "incomplete copy " + p);
            }
        }
    }

    private Path mountTmpfs(String name, String size) throws Exception {
        Path mnt = Files.createDirectories(dir.resolve(name));
        Cli.Result r = Cli.run(dir, Map.of(), List.of("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0755", "cpx-fault", name));
        assumeTrue(r.exit() == 0, "cannot mount a tmpfs here (needs root); disk-full tests skipped: " + r.err());
        return mnt;
    }

    private void unmount(Path mnt) throws Exception {
        Cli.run(dir, Map.of(), List.of("umount", mnt.toString()));
    }

    /**
     * Out of descriptors: under a limit of 100 (bash's {@code ulimit -n}, soft and hard), where GNU
     * cp copies the tree, so does cpx, whose closes put off in a batch are made first where an open
     * meets the limit ({@code CloseBatch.makeRoom}). Before, opens failed once the batch, the
     * workers' files and directories and the JVM's own descriptors (~35 with this test's class path
     * of jars) filled it: 0 of 3 runs copied the tree at 100, at 120 the native engine 0 of 3.
     */
    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aLowDescriptorLimitCopiesWhatGnuCpCopies(String engine) throws Exception {
        Path src = TreeFacts.manyFiles(dir.resolve("src"), 1500);
        String limited = "ulimit -n 100; exec \"$@\"";
        Cli.Result gnu = Cli.runScript(dir, Map.of(), null, limited, List.of(Cli.GNU_CP.toString(), "-r", "src", "gnu"));
        assertEquals(0, gnu.exit(), gnu::toString);
        List<String> command = new java.util.ArrayList<>(Cli.javaCommand("cpx"));
        command.addAll(List.of("--engine=" + engine, "-r", "src", "copy"));
        Cli.Result cpx = Cli.runScript(dir, Map.of(), null, limited, command);
        assertEquals(0, cpx.exit(), cpx::toString);
        assertEquals("", cpx.err());
        assertEquals(TreeFacts.count(dir.resolve("gnu")), TreeFacts.count(dir.resolve("copy")));
        assertNoIncompleteFile(src, dir.resolve("copy"));
    }

    /**
     * Under limits too low for the JVM's own descriptors (its jars, its runtime) and around the
     * lowest at which it copies (run from jars, as installed), cpx either copies or fails as any
     * failure, and ends: lines of its own on
     * standard error, exit status 1, no stack trace (before, a JDK class that could not initialize for
     * want of a descriptor escaped as "Exception in thread main" with its trace), and never a
     * file under its final name with less than its source's content.
     */
    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void limitsTooLowForTheJvmFailInOneLineEach(String engine) throws Exception {
        Path src = TreeFacts.manyFiles(dir.resolve("src"), 200);
        int copied = 0;
        for (int limit = 10; limit <= 64; limit += 3) {
            String limited = "ulimit -n " + limit + "; exec \"$@\"";
            // A class path of jars, as cpx is installed: a class path of directories opens a file
            // for each class it loads, which with no descriptor left fails where cpx's own does not.
            List<String> command = new ArrayList<>(Cli.stagedJavaCommand("cpx"));
            String copy = "copy" + limit;
            command.addAll(List.of("--engine=" + engine, "-r", "src", copy));
            Cli.Result r = Cli.runScript(dir, Map.of(), null, limited, command);
            String context = "ulimit -n " + limit + ": " + r;
            assertTrue(r.exit() == 0 || r.exit() == 1, context);
            for (String line : r.err().lines().toList()) {
                assertTrue(line.startsWith("cpx: ") && !line.contains("Exception in thread"), context);
            }
            assertEquals(r.exit() == 0, r.err().isEmpty(), context);
            assertNoIncompleteFile(src, dir.resolve(copy));
            copied += r.exit() == 0 ? 1 : 0;
        }
        assertTrue(copied > 0, "no limit up to 64 copied the tree");
    }

    /**
     * A tree deeper than the descriptor limit allows two descriptors a level for (a chain of 300
     * directories, beside 24 shallow ones, under {@code ulimit -n 64}), which GNU cp copies by paths:
     * so does cpx, parking the directories it waits on and opening them again at their end, where
     * {@code -a} gives them their modes and times. Before, the chain failed with "Too many open files"
     * (each directory held open until everything below it was done). With one worker ({@code -j 1})
     * each directory's subdirectories are copied inside its listing, in GNU's order, holding every
     * directory on the way in use: as deep as the limit leaves room for, and on their own below.
     */
    @ParameterizedTest(name = "engine={0} {1}")
    @org.junit.jupiter.params.provider.CsvSource({"native, -j4", "nio, -j4", "native, -j1", "nio, -j1"})
    void aTreeDeeperThanTheDescriptorLimitCopiesAsGnuCpCopiesIt(String engine, String jobs) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Path deep = src;
        for (int i = 0; i < 300; i++) {
            deep = Files.createDirectory(deep.resolve(i % 2 == 0 ? "d" : "e"));
            if (i % 25 == 0) {
                Files.write(deep.resolve("f"), Trees.randomBytes(i * 10, i));
                Files.createSymbolicLink(deep.resolve("l"), Path.of("f"));
            }
        }
        for (int i = 0; i < 24; i++) {
            Path side = Files.createDirectories(src.resolve("s" + i + "/t/u"));
            Files.write(side.resolve("g"), Trees.randomBytes(100 + i, i));
        }
        copiesAsGnuCpUnderALimit(src, deep, 7, "rwxr-x---", 64, Cli.javaCommand("cpx"), engine, jobs);
    }

    /**
     * Gives every {@code every}-th directory from {@code deep} up to {@code src} the mode
     * {@code mode}, and each a time of its own (what the copies must give them after their contents),
     * then copies {@code src} with {@code -a} by GNU cp and by {@code cpx} under {@code ulimit -n
     * limit}: both succeed, silently, with the same trees, modes and times.
     */
    private void copiesAsGnuCpUnderALimit(Path src, Path deep, int every, String mode, int limit, List<String> cpx,
            String engine, String jobs) throws Exception {
        for (Path p = deep; !p.equals(src); p = p.getParent()) {
            if (p.getNameCount() % every == 0) {
                Files.setPosixFilePermissions(p, java.nio.file.attribute.PosixFilePermissions.fromString(mode));
            }
            Files.setLastModifiedTime(p, java.nio.file.attribute.FileTime.fromMillis(1_000_000_000_000L + p.getNameCount()));
        }
        String limited = "ulimit -n " + limit + "; exec \"$@\"";
        Cli.Result gnu = Cli.runScript(dir, Map.of(), null, limited, List.of(Cli.GNU_CP.toString(), "-a", "src", "gnu"));
        assertEquals(0, gnu.exit(), gnu::toString);
        List<String> command = new ArrayList<>(cpx);
        command.addAll(List.of("--engine=" + engine, jobs, "-a", "src", "copy"));
        Cli.Result copy = Cli.runScript(dir, Map.of(), null, limited, command);
        assertEquals(0, copy.exit(), copy::toString);
        assertEquals("", copy.err());
        Trees.assertSameTree(dir.resolve("gnu"), dir.resolve("copy"), Detail.MODE, Detail.MTIME);
    }

    /**
     * A deep tree whose chain has a second subdirectory every ten levels, under {@code ulimit -n 48}:
     * the second waits for the first's whole subtree. Before, a subdirectory waiting to be opened
     * through its parent kept the parent open, so each such level held two descriptors until the end
     * of the chain below it and the copy failed with "Too many open files" where GNU cp copies the
     * tree ({@code -j 1}: 509 of 1,770 entries in a 400-level tree); now the parent is parked once
     * its first subdirectory is open, and opened again for the second. The workers are as many as
     * the limit leaves room for ({@code OpenFilesLimit.Shares.workers}).
     */
    @ParameterizedTest(name = "engine={0} {1}")
    @org.junit.jupiter.params.provider.CsvSource({"native, -j1", "nio, -j1", "native, -j4", "nio, -j4"})
    void aDeepTreeWithSecondSubdirectoriesUnderALowLimitCopiesAsGnuCpCopiesIt(String engine, String jobs) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Path deep = src;
        for (int i = 0; i < 250; i++) {
            Files.write(deep.resolve("f"), Trees.randomBytes(i % 13, i));
            if (i % 10 == 3) {
                Path second = Files.createDirectories(deep.resolve("second/x"));
                Files.write(second.resolve("g"), Trees.randomBytes(7, i));
            }
            deep = Files.createDirectory(deep.resolve("d"));
        }
        // Its classes from jars, as installed: a class loaded from a directory needs a descriptor of its own.
        copiesAsGnuCpUnderALimit(src, deep, 5, "r-xr-x---", 48, Cli.stagedJavaCommand("cpx"), engine, jobs);
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void diskFullFailsEachFileThatDoesNotFitAndResumeFinishesOnceThereIsSpace(String engine) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        for (int i = 0; i < 24; i++) {
            Files.write(src.resolve("f" + i), Trees.randomBytes(512 * 1024, i));
        }
        SourceGuard guard = SourceGuard.of(src);
        Path small = mountTmpfs("small", "6m");
        try {
            Cli.Result full = Cli.cpx(dir, "--engine=" + engine, "-a", "src", "small/dst");
            assertEquals(1, full.exit(), full::toString);
            List<String> lines = full.err().lines().toList();
            assertFalse(lines.isEmpty());
            for (String line : lines) {
                assertTrue(line.startsWith("cpx: ") && line.endsWith(": No space left on device") && line.contains("'small/dst/f"),
                        () -> "each failure names its file and the reason: " + line);
            }
            assertFalse(full.err().contains("Exception"), full::toString);
            assertNoIncompleteFile(src, small.resolve("dst"));
            guard.assertUnchanged();

            Cli.Result grow = Cli.run(dir, Map.of(), List.of("mount", "-o", "remount,size=64m", small.toString()));
            assertEquals(0, grow.exit(), grow::toString);
            Cli.Result resumed = Cli.cpx(dir, "--engine=" + engine, "-a", "--resume", "src", "small/dst");
            assertEquals(0, resumed.exit(), resumed::toString);
            Trees.assertSameTree(src, small.resolve("dst"), Detail.MODE, Detail.MTIME);
            guard.assertUnchanged();
        } finally {
            unmount(small);
        }
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void permissionProblemsAreReportedAndTheRestIsCopied(String engine) throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Files.writeString(src.resolve("secret"), "no");
        Files.createDirectories(src.resolve("closed/inner"));
        Files.writeString(src.resolve("closed/inner/x"), "x");
        Path locked = Files.createDirectories(dir.resolve("locked"));
        Files.setAttribute(dir, "unix:mode", 0755);
        Unprivileged.own(dir);
        Files.setAttribute(src.resolve("secret"), "unix:mode", 0);
        Files.setAttribute(src.resolve("closed"), "unix:mode", 0);
        Files.setAttribute(locked, "unix:mode", 0555);
        SourceGuard guard = SourceGuard.of(src);
        List<String> cmd = new ArrayList<>(Unprivileged.prefix());
        cmd.addAll(Cli.stagedJavaCommand("cpx"));
        cmd.add("--engine=" + engine);

        Cli.Result r = Cli.run(dir, Map.of(), cmd, "-r", "src", "dst");
        assertEquals(1, r.exit(), r::toString);
        assertEquals(List.of("cpx: cannot access 'src/closed': Permission denied",
                "cpx: cannot open 'src/secret' for reading: Permission denied"), r.err().lines().sorted().toList());
        assertEquals("hello\n", Files.readString(dir.resolve("dst/small.txt")));
        assertTrue(Files.isDirectory(dir.resolve("dst/a/b/c")));
        assertFalse(Files.exists(dir.resolve("dst/secret")));

        Cli.Result into = Cli.run(dir, Map.of(), cmd, "src/small.txt", "src/empty", "locked");
        assertEquals(1, into.exit(), into::toString);
        assertEquals(List.of("cpx: cannot create regular file 'locked/empty': Permission denied",
                "cpx: cannot create regular file 'locked/small.txt': Permission denied"), into.err().lines().sorted().toList());
        guard.assertUnchanged();
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aSourceChangingUnderTheCopyNeverCrashesOrHangs(String engine) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Path stable = Files.createDirectories(src.resolve("stable"));
        for (int i = 0; i < 400; i++) {
            Files.write(stable.resolve("s" + i), Trees.randomBytes(1000 + i, i));
        }
        Path moving = Files.createDirectories(src.resolve("moving"));
        AtomicBoolean stop = new AtomicBoolean();
        Thread mutator = new Thread(() -> {
            int round = 0;
            while (!stop.get()) {
                try {
                    Path grow = moving.resolve("grows");
                    Files.write(grow, Trees.randomBytes(4096, round), java.nio.file.StandardOpenOption.CREATE,
                            java.nio.file.StandardOpenOption.APPEND);
                    Files.write(moving.resolve("shrinks"), Trees.randomBytes(round % 2 == 0 ? 200_000 : 10, round));
                    Path flip = moving.resolve("flips");
                    deleteTree(flip);
                    switch (round % 3) {
                        case 0 -> Files.write(flip, new byte[] {1});
                        case 1 -> Files.createDirectories(flip.resolve("now/a/dir"));
                        default -> Files.createSymbolicLink(flip, Path.of("../stable/s1"));
                    }
                    Path vanishing = moving.resolve("vanishing/deeper");
                    if (round % 2 == 0) {
                        for (int k = 0; k < 20; k++) {
                            Files.createDirectories(vanishing.resolve("d" + k));
                            Files.writeString(vanishing.resolve("d" + k + "/f"), "v");
                        }
                    } else {
                        deleteTree(moving.resolve("vanishing"));
                    }
                } catch (IOException | RuntimeException e) {
                    // racing with the copy's reads is the point; keep changing
                }
                round++;
            }
        });
        mutator.setDaemon(true);
        mutator.start();
        try {
            for (int run = 0; run < 4; run++) {
                Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "-r", "-j", "3", "src", "dst" + run);
                assertTrue(r.exit() == 0 || r.exit() == 1, r::toString);
                assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r::toString);
                for (String line : r.err().lines().toList()) {
                    assertTrue(line.startsWith("cpx: ") && line.contains("'src/moving"), () -> "a clear message about a moving entry: " + line);
                }
                Trees.assertSameTree(stable, dir.resolve("dst" + run + "/stable"));
            }
        } finally {
            stop.set(true);
            mutator.join();
        }
    }

    @Test
    void anEngineThatFailsMidFileLosesOnlyThatFile() throws Exception {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        PluginJars.build(Files.createDirectories(dir.resolve("build")), plugins.resolve("failing.jar"), Map.of(
                "test.faults.FailingEngine", """
                        package test.faults;

                        import dev.cpx.spi.*;
                        import dev.cpx.spi.support.*;
                        import java.io.IOException;
                        import java.util.concurrent.atomic.AtomicInteger;

                        /** Fails every third copy half way with EIO, the way a dying disk does. */
                        public final class FailingEngine implements CopyEngine {
                            private final AtomicInteger calls = new AtomicInteger();
                            public String id() { return "failing"; }
                            public String description() { return "test engine failing every third copy"; }
                            public Availability availability() { return Availability.ok(); }
                            public long copy(CopyRequest request) throws IOException {
                                if (calls.incrementAndGet() % 3 == 0) {
                                    BufferedCopy.copy(request.withRange(0, Math.max(1, request.fileSize() / 2)));
                                    throw new IOException("Input/output error");
                                }
                                return BufferedCopy.copy(request);
                            }
                        }
                        """, "test.faults.ShortEngine", """
                        package test.faults;

                        import dev.cpx.spi.*;
                        import dev.cpx.spi.support.*;
                        import java.io.IOException;

                        /** Copies only half of each file and says so, silently: a buggy engine. */
                        public final class ShortEngine implements CopyEngine {
                            public String id() { return "short"; }
                            public String description() { return "test engine that copies half"; }
                            public Availability availability() { return Availability.ok(); }
                            public long copy(CopyRequest request) throws IOException {
                                return BufferedCopy.copy(request.withRange(0, request.fileSize() / 2));
                            }
                        }
                        """), List.of("test.faults.FailingEngine", "test.faults.ShortEngine"));
        Path src = Files.createDirectories(dir.resolve("src"));
        for (int i = 0; i < 30; i++) {
            Files.write(src.resolve("f" + i), Trees.randomBytes(10_000 + i, i));
        }
        SourceGuard guard = SourceGuard.of(src);
        Cli.Result r = Cli.cpx(dir, "--plugin-path=" + plugins, "--engine=failing", "-j", "1", "-r", "src", "dst");
        assertEquals(1, r.exit(), r::toString);
        assertEquals(10, r.err().lines().count(), r::toString);
        r.err().lines().forEach(l -> assertTrue(l.matches("cpx: error reading 'src/f\\d+': Input/output error"), l));
        assertNoIncompleteFile(src, dir.resolve("dst"));
        assertEquals(20, Files.list(dir.resolve("dst")).count());

        Cli.Result shortCopy = Cli.cpx(dir, "--plugin-path=" + plugins, "--engine=short", "-r", "src", "dst2");
        assertEquals(1, shortCopy.exit(), shortCopy::toString);
        assertEquals(30, shortCopy.err().lines().filter(l -> l.contains("short copy")).count(), shortCopy::toString);
        assertNoIncompleteFile(src, dir.resolve("dst2"));
        guard.assertUnchanged();
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            Files.deleteIfExists(root);
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
