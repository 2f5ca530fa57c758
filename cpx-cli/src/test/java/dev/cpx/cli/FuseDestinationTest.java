package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Copies onto a FUSE file system ({@link FuseFileSystem}) whose close of a file may report a write
 * error, as NFS, CIFS and FUSE file systems do: each engine against GNU cp 9.1 run beside it, the same
 * tree, exit status and messages. Run on each kind of file system the tests mount (the subclasses):
 * one that, as NFS, CIFS and many FUSE file systems, cannot rename without replacing nor make unnamed
 * files (a new tree is staged under a hidden name and renamed into place when whole, the rename
 * looking whether the name is taken, as gnulib's does for GNU; a file in a directory that existed is
 * written under a temporary name), and one that can do both as a local file system does (a file in a
 * directory that existed is written unnamed and named in its turn, so its close comes after its
 * naming).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FuseDestinationTest {

    private Path dir;
    private FuseFileSystem fuse;
    private Path src;

    /** Mounts the file system under test in {@code dir}. */
    abstract FuseFileSystem mount(Path dir) throws Exception;

    /**
     * Checks that {@code wanted} were written unnamed and then named, where the file system makes
     * unnamed files ({@code named}: what it named during the copy); otherwise nothing.
     */
    abstract void assertWrittenUnnamed(List<String> named, List<String> wanted);

    @BeforeAll
    void mountAndMakeTheSource(@TempDir Path dir) throws Exception {
        this.dir = dir;
        fuse = mount(dir);
        // Names a FUSE file system in Python can carry (UTF-8): directories, files, links.
        src = Files.createDirectories(dir.resolve("src"));
        Files.createDirectories(src.resolve("a/b/c"));
        Files.createDirectories(src.resolve("empty dir"));
        Files.write(src.resolve("empty"), new byte[0]);
        Files.write(src.resolve("a/small"), Trees.randomBytes(4097, 1));
        Files.write(src.resolve("a/b/c/large"), Trees.randomBytes(3 * 1024 * 1024 + 5, 2));
        Files.writeString(src.resolve("a/b/ünï"), "text");
        Files.createSymbolicLink(src.resolve("link"), Path.of("a/small"));
        Files.createSymbolicLink(src.resolve("a/dangling"), Path.of("nowhere"));
        Files.createLink(src.resolve("a/b/hard"), src.resolve("a/small"));
        Path closing = dir.resolve("closing");
        Files.createDirectories(closing.resolve("d"));
        Files.writeString(closing.resolve("d/close-fails.txt"), "hello\n");
        Files.writeString(closing.resolve("d/fine.txt"), "ok\n");
        Files.writeString(closing.resolve("top"), "top\n");
    }

    @AfterAll
    void unmount() throws Exception {
        if (fuse != null) {
            fuse.close();
        }
    }

    /** One command run by GNU cp and by cpx, and the unnamed files the file system named during cpx's. */
    private record Twin(Cli.Result gnu, Cli.Result cpx, List<String> named) {
        /** The same exit status and messages, each naming its own destination (gnu-..., cpx-...). */
        void assertSameOutcome() {
            assertEquals(gnu.exit(), cpx.exit(), () -> "GNU cp: " + gnu + "\ncpx: " + cpx);
            assertEquals(gnu.err().replace(Cli.GNU_CP + ": ", "cpx: ").replace("gnu-", "cpx-"), cpx.err(), cpx::toString);
        }
    }

    /**
     * GNU cp and then cpx with {@code engine}, in the mount's root, on {@code sources} (absolute) to
     * gnu-{@code target} and cpx-{@code target}.
     */
    private Twin both(String engine, List<String> options, List<Path> sources, String target) throws Exception {
        Path root = fuse.root();
        List<String> gnu = new ArrayList<>(options);
        List<String> cpx = new ArrayList<>(List.of("--engine=" + engine));
        cpx.addAll(options);
        for (Path source : sources) {
            gnu.add(source.toString());
            cpx.add(source.toString());
        }
        gnu.add("gnu-" + target);
        cpx.add("cpx-" + target);
        Cli.Result gnuResult = Cli.gnu(root, gnu.toArray(String[]::new));
        int before = fuse.namedUnnamed().size();
        Cli.Result cpxResult = Cli.cpx(root, cpx.toArray(String[]::new));
        List<String> named = fuse.namedUnnamed();
        return new Twin(gnuResult, cpxResult, List.copyOf(named.subList(before, named.size())));
    }

    /** The directory {@code relative} made in both destinations, gnu-{@code target} and cpx-{@code target}. */
    private void makeInBoth(String target, Path relative) throws Exception {
        for (String side : List.of("gnu-", "cpx-")) {
            Files.createDirectories(fuse.root().resolve(side + target).resolve(relative));
        }
    }

    /**
     * A file whose close reports a write error (as NFS reports a quota or a full server there), in a
     * new tree and in directories that existed: GNU's message and exit status; GNU leaves the file,
     * cpx removes it (never a file that may be incomplete under its name), the rest of the tree the same.
     */
    @ParameterizedTest(name = "[{0} {1}] engine={2}")
    @CsvSource({"-r, new, native", "-r, new, nio", "-a, new, native", "-a, new, nio",
        "-r, existing, native", "-r, existing, nio", "-a, existing, native", "-a, existing, nio"})
    void aWriteErrorReportedAtCloseFailsTheFileAsGnuCpSays(String option, String into, String engine) throws Exception {
        Path root = fuse.root();
        String name = "closing" + option.substring(1) + "-" + into + "-" + engine;
        // Into directories that exist, the copy goes into closing/ there, as GNU's does.
        String made = into.equals("existing") ? "closing/" : "";
        if (!made.isEmpty()) {
            makeInBoth(name, Path.of("closing", "d"));
        }
        Twin twin = both(engine, List.of(option), List.of(dir.resolve("closing")), name);
        assertEquals(1, twin.gnu().exit(), twin.gnu()::toString);
        twin.assertSameOutcome();
        if (!made.isEmpty()) {
            assertWrittenUnnamed(twin.named(), List.of("close-fails.txt", "fine.txt"));
        }
        assertFalse(Files.exists(root.resolve("cpx-" + name).resolve(made + "d/close-fails.txt")), "the file that failed is removed");
        Files.delete(root.resolve("gnu-" + name).resolve(made + "d/close-fails.txt"));
        Trees.assertSameTree(root.resolve("gnu-" + name), root.resolve("cpx-" + name), Detail.MODE);
    }

    /** The same for a file operand, into a directory that exists and to a new name in one. */
    @ParameterizedTest(name = "[{0}] engine={1}")
    @CsvSource({"into, native", "into, nio", "to, native", "to, nio"})
    void aFileOperandWhoseCloseFailsAsGnuCpSays(String how, String engine) throws Exception {
        Path root = fuse.root();
        Path file = dir.resolve("operand").resolve("close-fails.txt");
        if (!Files.exists(file)) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, "hello\n");
        }
        String name = how + "-" + engine;
        makeInBoth(name, Path.of(""));
        Twin twin = both(engine, List.of(), List.of(file), how.equals("into") ? name : name + "/copy-close-fails");
        assertEquals(1, twin.gnu().exit(), twin.gnu()::toString);
        twin.assertSameOutcome();
        try (var left = Files.list(root.resolve("cpx-" + name))) {
            assertEquals(List.of(), left.toList(), "nothing is left of the file, not even under a temporary name");
        }
    }

    @ParameterizedTest(name = "[{0}] engine={1}")
    @CsvSource({"-r, native", "-r, nio", "-a, native", "-a, nio"})
    void copiesANewTreeAsGnuCpDoes(String option, String engine) throws Exception {
        Path root = fuse.root();
        String name = option.substring(1) + "-" + engine;
        both(engine, List.of(option), List.of(src), name).assertSameOutcome();
        Trees.assertSameTree(root.resolve("gnu-" + name), root.resolve("cpx-" + name), Detail.MODE);
        // Once more: the tree is there now, so the copy goes into it (cpx-NAME/src), as GNU's does.
        both(engine, List.of(option), List.of(src), name).assertSameOutcome();
        Trees.assertSameTree(root.resolve("gnu-" + name), root.resolve("cpx-" + name), Detail.MODE);
        try (var left = Files.list(root)) {
            assertEquals(0, left.filter(p -> p.getFileName().toString().startsWith(".")).count(), "nothing staged is left");
        }
    }

    /**
     * A tree copied into a copy of its directories, as GNU cp does (each file made in a directory
     * that existed), then again over the files that copy made.
     */
    @ParameterizedTest(name = "[{0}] engine={1}")
    @CsvSource({"-r, native", "-r, nio", "-a, native", "-a, nio"})
    void copiesATreeIntoItsDirectoriesAndOverItAsGnuCpDoes(String option, String engine) throws Exception {
        Path root = fuse.root();
        String name = "dirs" + option.substring(1) + "-" + engine;
        try (var dirs = Files.walk(src)) {
            for (Path d : dirs.filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)).toList()) {
                makeInBoth(name, Path.of("src").resolve(src.relativize(d)));
            }
        }
        for (int round = 0; round < 2; round++) {
            Twin twin = both(engine, List.of(option), List.of(src), name);
            twin.assertSameOutcome();
            Trees.assertSameTree(root.resolve("gnu-" + name), root.resolve("cpx-" + name), Detail.MODE);
            if (round == 0) {
                // With -a, a/small and a/b/hard are one file: the name met first is written, the other linked to it.
                List<String> named = twin.named();
                List<String> wanted = List.of("empty", "large", "ünï", named.contains("hard") ? "hard" : "small");
                assertWrittenUnnamed(named, wanted);
            }
        }
    }
}
