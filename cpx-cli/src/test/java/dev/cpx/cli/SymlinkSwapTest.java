package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.testing.Unprivileged;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Root copies while another user swaps a name on the way for a symbolic link (docs/security.md):
 * nothing outside the trees given is written, changed, removed or read. Each race is made certain,
 * not lucky: the source holds a FIFO that cpx reads ({@code --copy-contents}), listed before the
 * entries the swap is about, which wait for its name (cpx names a directory's entries in their
 * order): the test swaps while cpx waits in the FIFO's {@code open}, then lets it go. The swaps run
 * as the unprivileged user, in a directory it owns.
 */
class SymlinkSwapTest {

    private Path work;

    @BeforeEach
    void work() throws Exception {
        assumeTrue("0".equals(sh(Path.of("/"), "id -u").strip()), "root copies here: the test needs root");
        Unprivileged.uid();
        work = Files.createTempDirectory(Path.of("/tmp"), "cpx-swap");
        sh(work, "chmod 755 .");
    }

    @AfterEach
    void clean() throws Exception {
        if (work != null) {
            Cli.run(Path.of("/"), Map.of(), List.of("rm", "-rf", work.toString()));
        }
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aDestinationDirectorySwappedForALinkToARootDirectoryGetsNothing(String engine) throws Exception {
        sh(work, "mkdir -p src incoming outside && echo x > src/x && chown " + user() + " incoming");
        fifoFirst(work.resolve("src"), "sub2", "sub3");
        sh(work, "echo 2 > src/sub2/f2 && echo 3 > src/sub3/f3");
        Process cpx = start(engine, "-r", "--copy-contents", "-j", "1", "src", "incoming/");
        // The directory root is filling: the copy's staging name while it is made (see StagingTest).
        swapWhileWaiting(cpx, work.resolve("src/a"), "d=incoming/.src.cpx-part; [ -e $d ] || d=incoming/src;"
                + " mv $d incoming/moved && ln -s " + work.resolve("outside") + " $d");
        String err = finish(cpx);
        assertEquals(List.of(), list(work.resolve("outside")), "nothing made in the root directory the link leads to; " + err);
        assertFalse(Files.isDirectory(work.resolve("incoming/src")), "the link is not given the copy's name: " + err);
        assertEquals("2\n", Files.readString(work.resolve("incoming/moved/sub2/f2")), "copied on into the directory cpx made");
        assertEquals("3\n", Files.readString(work.resolve("incoming/moved/sub3/f3")));
        assertEquals("data", Files.readString(work.resolve("incoming/moved/a")));
    }

    /**
     * With two workers {@code d} is looked at (a directory) while the FIFO before it is copied, and
     * opened after the swap: refused. With one, everything is copied in GNU cp's order: {@code d} is
     * looked at after the FIFO, so after the swap, and copied as the link it is then, as GNU cp does.
     * Either way nothing is read through the link.
     */
    @ParameterizedTest(name = "engine={0} -j {1}")
    @CsvSource({"native, 2", "nio, 2", "native, 1", "nio, 1"})
    void aSourceDirectorySwappedForALinkToARootOnlyDirectoryIsNotRead(String engine, String jobs) throws Exception {
        sh(work, "mkdir -p asrc backup secret && echo root-secret > secret/s && chmod 700 secret");
        fifoFirst(work.resolve("asrc"), "d");
        sh(work, "echo alice > asrc/d/f && chown -R " + user() + " asrc");
        Process cpx = start(engine, "-r", "--copy-contents", "-j", jobs, "asrc", "backup/");
        swapWhileWaiting(cpx, work.resolve("asrc/a"), "mv asrc/d asrc/d.old && ln -s " + work.resolve("secret") + " asrc/d");
        String err = finish(cpx);
        try (Stream<Path> all = Files.walk(work.resolve("backup"))) {
            for (Path p : (Iterable<Path>) all::iterator) {
                assertFalse(Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && Files.readString(p).contains("root-secret"),
                        "read through the link: " + p + "; " + err);
            }
        }
        if (jobs.equals("1")) {
            assertTrue(Files.isSymbolicLink(work.resolve("backup/asrc/d")), "copied as the link it was when its turn came: " + err);
            assertTrue(err.endsWith("stderr: "), err);
        } else {
            assertFalse(Files.exists(work.resolve("backup/asrc/d/s"), LinkOption.NOFOLLOW_LINKS), err);
            assertTrue(err.contains("cannot access 'asrc/d'"), err);
        }
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aDestinationFileSwappedBeforeItsAttributesAreSetLeavesTheLinkTargetAlone(String engine) throws Exception {
        sh(work, "mkdir -p src incoming/src && mkfifo src/f && chmod 644 src/f && touch -d 2001-01-01 src/f"
                + " && echo old > incoming/src/f && chown -R " + user() + " incoming"
                + " && echo victim > victim && chmod 600 victim && touch -d 1999-09-09 victim");
        FileTime before = Files.getLastModifiedTime(work.resolve("victim"));
        Process cpx = start(engine, "-a", "--copy-contents", "src", "incoming/");
        awaitFifoOpen(cpx);
        try (OutputStream writer = Files.newOutputStream(work.resolve("src/f"))) {
            // cpx opens the copy once the FIFO has its writer, then waits for data.
            awaitOpen(cpx, work.resolve("incoming/src/f"));
            asUser("mv incoming/src/f incoming/src/f.old && ln -s " + work.resolve("victim") + " incoming/src/f");
            writer.write("data".getBytes(StandardCharsets.US_ASCII));
        }
        String err = finish(cpx);
        assertEquals("600", sh(work, "stat -c %a victim").strip(), "mode of the link's target; " + err);
        assertEquals("0", sh(work, "stat -c %u victim").strip(), "owner of the link's target");
        assertEquals(before, Files.getLastModifiedTime(work.resolve("victim")), "times of the link's target");
        assertEquals("victim\n", Files.readString(work.resolve("victim")));
    }

    @ParameterizedTest(name = "engine={0}, {1}")
    @ValueSource(strings = {"native -b", "nio -b", "native --remove-destination", "nio --remove-destination"})
    void aBackupOrRemovalAfterTheDestinationWasSwappedStaysInTheDestination(String variant) throws Exception {
        String[] v = variant.split(" ");
        sh(work, "mkdir -p src incoming/src/sub outside/sub && echo new > src/x"
                + " && echo alice > incoming/src/sub/f && chown -R " + user() + " incoming"
                + " && echo victim > outside/sub/f");
        fifoFirst(work.resolve("src"), "sub");
        sh(work, "echo new > src/sub/f");
        Process cpx = start(v[0], "-r", v[1], "--copy-contents", "-j", "1", "src", "incoming/");
        swapWhileWaiting(cpx, work.resolve("src/a"), "mv incoming/src incoming/moved && ln -s " + work.resolve("outside") + " incoming/src");
        String err = finish(cpx);
        assertEquals(List.of("f"), list(work.resolve("outside/sub")), "nothing renamed, removed or made there; " + err);
        assertEquals("victim\n", Files.readString(work.resolve("outside/sub/f")));
        assertEquals("new\n", Files.readString(work.resolve("incoming/moved/sub/f")), "copied into the directory cpx had open");
    }

    /**
     * A plan's worker copying into a destination that existed when planned (the other user owns a
     * directory of it): the directory swapped for a link while the worker copies its entries gets
     * nothing, and the entries go on into the directory the worker opened. (Workers reached each
     * entry by its path: the FIFO's copy, made once it had its writer, went through the link.)
     */
    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aPlanWorkersDestinationDirectorySwappedForALinkGetsNothing(String engine) throws Exception {
        sh(work, "mkdir -p src/sub dst/src/sub outside && mkfifo src/sub/a && chmod 644 src/sub/a"
                + " && echo b > src/sub/b && echo c > src/sub/c && chown -R " + user() + " dst/src");
        Cli.Result plan = Cli.cpx(work, "--plan=plan", "--chunks=1", "--engine=" + engine, "-r", "--copy-contents", "src", "dst");
        assertEquals(0, plan.exit(), plan::toString);
        Process cpx = start(null, "--work=plan");
        swapWhileWaiting(cpx, work.resolve("src/sub/a"),
                "mv dst/src/sub dst/src/moved && ln -s " + work.resolve("outside") + " dst/src/sub");
        String err = finish(cpx);
        assertEquals(List.of(), list(work.resolve("outside")), "nothing made through the link; " + err);
        assertEquals("data", Files.readString(work.resolve("dst/src/moved/a")), "copied on into the directory the worker opened; " + err);
        assertEquals("b\n", Files.readString(work.resolve("dst/src/moved/b")));
        assertEquals("c\n", Files.readString(work.resolve("dst/src/moved/c")));
    }

    /**
     * The same swap before a worker links the second name of a hard-linked file to the first's copy
     * (after its runs): the link is refused, nothing is made or replaced through it. (The worker made
     * the link by path, in the directory it had checked before the runs: it replaced a file there.)
     */
    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aPlanWorkersHardLinkIntoASwappedDirectoryIsRefused(String engine) throws Exception {
        sh(work, "mkdir -p src/sub dst/src/sub outside && mkfifo src/sub/a && chmod 644 src/sub/a"
                + " && echo h > src/sub/h1 && ln src/sub/h1 src/sub/h2 && chown -R " + user() + " dst/src"
                + " && echo victim1 > outside/h1 && echo victim2 > outside/h2");
        Cli.Result plan = Cli.cpx(work, "--plan=plan", "--chunks=1", "--engine=" + engine, "-r", "--preserve=links",
                "--copy-contents", "src", "dst");
        assertEquals(0, plan.exit(), plan::toString);
        Process cpx = start(null, "--work=plan");
        swapWhileWaiting(cpx, work.resolve("src/sub/a"),
                "mv dst/src/sub dst/src/moved && ln -s " + work.resolve("outside") + " dst/src/sub");
        String err = finish(cpx);
        assertEquals(List.of("h1", "h2"), list(work.resolve("outside")), "nothing made through the link; " + err);
        assertEquals("victim1\n", Files.readString(work.resolve("outside/h1")), "nothing replaced through the link; " + err);
        assertEquals("victim2\n", Files.readString(work.resolve("outside/h2")), err);
        assertTrue(err.contains("refusing to follow the symbolic link '" + work.resolve("dst/src/sub") + "' in the destination"), err);
        assertTrue(err.startsWith("exit 1"), err);
    }

    /**
     * Another user makes a name in a directory that existed, after cpx found the name free and wrote
     * its file unnamed, before cpx names it there (the file waits for its turn behind a FIFO): the
     * name is left as that user made it, the file reported as GNU words a create that finds its name
     * taken, and the other files copied. (The failed naming released the directory's two descriptors
     * once too often: "internal error: ... released more often than retained", the descriptors closed
     * while the directory's other files still used them.)
     */
    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aNameTakenWhileItsNewFileWaitsToBeNamedIsLeftAloneAndTheRestIsCopied(String engine) throws Exception {
        String err = takeTheNameWhileItsFileWaits(engine, false);
        assertEquals("exit 1, stderr: cpx: cannot create regular file 'incoming/src/b': File exists\n", err);
    }

    /**
     * The same with {@code -b} over an earlier {@code b}: after the failure its backup would go back
     * to the name (GNU's un-backup, a rename that replaces), but the name is the other user's file
     * now: that stays, the backup keeps its backup name, and both are said in GNU's order.
     */
    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aBackupDoesNotGoBackOverANameTakenMeanwhile(String engine) throws Exception {
        String err = takeTheNameWhileItsFileWaits(engine, true);
        assertEquals("exit 1, stderr: cpx: cannot create regular file 'incoming/src/b': File exists\n"
                + "cpx: cannot un-backup 'incoming/src/b': File exists\n", err);
        assertEquals("old b\n", Files.readString(work.resolve("incoming/src/b~")), "the backup, under its backup name");
    }

    /**
     * Copies {@code src} (a FIFO first, then b, c, d, e) into the existing {@code incoming/src} (over
     * an earlier {@code b}, with {@code -b}, when {@code backup}); the other user writes {@code b}
     * there while cpx's new b waits, unnamed, behind the FIFO. Checks what is the same either way.
     */
    private String takeTheNameWhileItsFileWaits(String engine, boolean backup) throws Exception {
        sh(work, "mkdir -p src incoming/src" + (backup ? " && echo 'old b' > incoming/src/b" : "")
                + " && chown -R " + user() + " incoming");
        fifoFirst(work.resolve("src"));
        List<String> files = List.of("b", "c", "d", "e");
        filesAfter(work.resolve("src/a"), files, f -> "ours " + f + "\n");
        List<String> args = new ArrayList<>(List.of("-r", "--copy-contents", "-j", "2", "src", "incoming/"));
        if (backup) {
            args.add(0, "-b");
        }
        Process cpx = start(engine, args.toArray(String[]::new));
        awaitFifoOpen(cpx);
        awaitUnnamed(cpx, work.resolve("incoming/src"), files.size());
        asUser("echo theirs > incoming/src/b");
        Files.writeString(work.resolve("src/a"), "data");
        String err = finish(cpx);
        assertEquals("theirs\n", Files.readString(work.resolve("incoming/src/b")), "the other user's file; " + err);
        assertEquals("data", Files.readString(work.resolve("incoming/src/a")));
        for (String f : files.subList(1, files.size())) {
            assertEquals("ours " + f + "\n", Files.readString(work.resolve("incoming/src").resolve(f)), f);
        }
        return err;
    }

    /**
     * Writes the regular files {@code names} beside the FIFO {@code fifo}, each with an inode after the
     * FIFO's, so that cpx takes them after it. The file system fills its free inode numbers lowest
     * first: empty placeholder files take the numbers below the FIFO's (a busy /tmp can have
     * thousands) until one lands above it, which then becomes the file; the placeholders are removed
     * only when every file is written, so that no file falls into a number freed meanwhile.
     */
    private static void filesAfter(Path fifo, List<String> names, Function<String, String> content)
            throws Exception {
        long after = inode(fifo);
        List<Path> spare = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try {
            for (String name : names) {
                while (true) {
                    Path candidate = fifo.resolveSibling(name + ".spare" + spare.size());
                    Files.createFile(candidate);
                    if (inode(candidate) > after) {
                        Files.move(candidate, fifo.resolveSibling(name));
                        Files.writeString(fifo.resolveSibling(name), content.apply(name));
                        break;
                    }
                    spare.add(candidate);
                    if (System.nanoTime() > deadline) {
                        fail("could not give " + name + " an inode after the FIFO's (" + spare.size() + " numbers below it)");
                    }
                }
            }
        } finally {
            for (Path p : spare) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Waits until cpx holds {@code count} unnamed files ({@code O_TMPFILE}) made in {@code dir}. */
    private static void awaitUnnamed(Process cpx, Path dir, int count) throws Exception {
        String prefix = dir + "/#";
        awaitDescriptors(cpx, count, "held " + count + " unnamed files in " + dir, target -> {
            String t = target.toString();
            return t.startsWith(prefix) && t.endsWith(" (deleted)");
        });
    }

    /**
     * Makes the FIFO {@code dir/a} and the empty directories {@code names} in {@code dir}, the FIFO with
     * the lowest inode, so that cpx (which takes a directory's entries in inode order) reaches it
     * first. The file system picks inode numbers (ext4 reuses freed ones, and puts directories where
     * it likes): new FIFOs and new directories are made beside the old ones, so each try gets a new
     * number, until the order holds.
     */
    private static void fifoFirst(Path dir, String... names) throws Exception {
        Files.createDirectories(dir);
        sh(dir, "mkfifo a");
        for (String n : names) {
            Files.createDirectory(dir.resolve(n));
        }
        List<Path> spare = new ArrayList<>();
        try {
            for (int attempt = 0; attempt < 200; attempt++) {
                long lowest = Long.MAX_VALUE;
                for (String n : names) {
                    lowest = Math.min(lowest, inode(dir.resolve(n)));
                }
                if (inode(dir.resolve("a")) < lowest) {
                    return;
                }
                if (attempt % 2 == 0) {
                    // A new FIFO beside the old one (kept meanwhile, so its number is not given again).
                    Path fifo = dir.resolve("a." + attempt);
                    sh(dir, "mkfifo " + fifo.getFileName());
                    if (inode(fifo) < lowest) {
                        Files.move(fifo, dir.resolve("a"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    } else {
                        spare.add(fifo);
                    }
                } else {
                    long fifo = inode(dir.resolve("a"));
                    for (String n : names) {
                        if (inode(dir.resolve(n)) < fifo) {
                            Path again = dir.resolve(n + "." + attempt);
                            Files.createDirectory(again);
                            spare.add(dir.resolve(n + ".old" + attempt));
                            Files.move(dir.resolve(n), spare.get(spare.size() - 1));
                            Files.move(again, dir.resolve(n));
                        }
                    }
                }
            }
            fail("could not make the FIFO's inode the lowest in " + dir);
        } finally {
            for (Path p : spare) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static long inode(Path p) throws IOException {
        return (Long) Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS);
    }

    /** Starts cpx with {@code args}, and {@code --engine=ENGINE} where {@code engine} is not null. */
    private Process start(String engine, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(Cli.javaCommand("cpx"));
        if (engine != null) {
            cmd.add("--engine=" + engine);
        }
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).directory(work.toFile())
                .redirectOutput(work.resolve("cpx.out").toFile()).redirectError(work.resolve("cpx.err").toFile()).start();
    }

    /** Waits until cpx waits in the FIFO's open, swaps as the other user, then writes the FIFO's data. */
    private void swapWhileWaiting(Process cpx, Path fifo, String swap) throws Exception {
        awaitFifoOpen(cpx);
        asUser(swap);
        Files.writeString(fifo, "data");
    }

    private String finish(Process cpx) throws Exception {
        if (!cpx.waitFor(120, TimeUnit.SECONDS)) {
            cpx.destroyForcibly();
            fail("cpx did not finish");
        }
        return "exit " + cpx.exitValue() + ", stderr: " + Files.readString(work.resolve("cpx.err"));
    }

    private static void awaitFifoOpen(Process cpx) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!threadWaits(cpx.pid(), "wait_for_partner")) {
            if (!cpx.isAlive() || System.nanoTime() > deadline) {
                fail("cpx never waited in the FIFO's open (exit " + (cpx.isAlive() ? "-" : cpx.exitValue()) + ")");
            }
            Thread.sleep(10);
        }
    }

    /** Waits until cpx has {@code file} open. */
    private static void awaitOpen(Process cpx, Path file) throws Exception {
        awaitDescriptors(cpx, 1, "opened " + file, file::equals);
    }

    /** Waits until {@code count} of cpx's open descriptors lead to a {@code target} it accepts; else fails, saying it never {@code did}. */
    private static void awaitDescriptors(Process cpx, int count, String did, Predicate<Path> target) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            long found;
            try (Stream<Path> fds = Files.list(Path.of("/proc/" + cpx.pid() + "/fd"))) {
                found = fds.filter(fd -> {
                    try {
                        return target.test(Files.readSymbolicLink(fd));
                    } catch (IOException e) {
                        return false;
                    }
                }).count();
            }
            if (found >= count) {
                return;
            }
            if (!cpx.isAlive() || System.nanoTime() > deadline) {
                fail("cpx never " + did + " (" + found + ")");
            }
            Thread.sleep(10);
        }
    }

    private static boolean threadWaits(long pid, String wchan) throws IOException {
        Path dir = Path.of("/proc/" + pid + "/task");
        if (!Files.isDirectory(dir)) {
            return false; // ended: the caller says how
        }
        try (Stream<Path> tasks = Files.list(dir)) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    if (Files.readString(t.resolve("wchan")).contains(wchan)) {
                        return true;
                    }
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        }
        return false;
    }

    private void asUser(String script) throws Exception {
        Cli.Result r = Cli.run(work, Map.of(), Unprivileged.prefix(), "sh", "-c", script);
        assertEquals(0, r.exit(), () -> "the other user's swap: " + r);
    }

    private static String user() {
        return Unprivileged.uid() + ":" + Unprivileged.gid();
    }

    private static List<String> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static String sh(Path dir, String script) throws Exception {
        Cli.Result r = Cli.run(dir, Map.of(), List.of("sh", "-c", script));
        assertEquals(0, r.exit(), r::toString);
        return r.out();
    }
}
