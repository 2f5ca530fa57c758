package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Copies onto a FUSE file system ({@link FuseFileSystem}) that, as NFS, CIFS and many FUSE file
 * systems, cannot rename without replacing: each engine against GNU cp 9.1 run beside it, the same
 * tree, exit status and messages. A new tree is staged under a hidden name and renamed into place
 * when whole; there the rename looks whether the name is taken and renames, as gnulib's does for GNU.
 */
class FuseDestinationTest {

    @TempDir
    static Path dir;

    private static FuseFileSystem fuse;
    private static Path src;

    @BeforeAll
    static void mount() throws Exception {
        fuse = FuseFileSystem.mount(dir);
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
    }

    @AfterAll
    static void unmount() throws Exception {
        if (fuse != null) {
            fuse.close();
        }
    }

    /**
     * A file whose close reports a write error (as NFS reports a quota or a full server there): GNU's
     * message and exit status; GNU leaves the file, cpx removes it (never a file that may be
     * incomplete under its name), the rest of the tree the same.
     */
    @ParameterizedTest(name = "[{0}] engine={1}")
    @CsvSource({"-r, native", "-r, nio", "-a, native", "-a, nio"})
    void aWriteErrorReportedAtCloseFailsTheFileAsGnuCpSays(String option, String engine) throws Exception {
        Path root = fuse.root();
        Path tree = dir.resolve("closing");
        if (!Files.exists(tree)) {
            Files.createDirectories(tree.resolve("d"));
            Files.writeString(tree.resolve("d/close-fails.txt"), "hello\n");
            Files.writeString(tree.resolve("d/fine.txt"), "ok\n");
            Files.writeString(tree.resolve("top"), "top\n");
        }
        String name = "closing" + option.substring(1) + "-" + engine;
        Cli.Result gnu = Cli.gnu(root, option, tree.toString(), "gnu-" + name);
        Cli.Result cpx = Cli.cpx(root, "--engine=" + engine, option, tree.toString(), "cpx-" + name);
        assertEquals(1, gnu.exit(), gnu::toString);
        assertEquals(gnu.exit(), cpx.exit(), () -> "GNU cp: " + gnu + "\ncpx: " + cpx);
        assertEquals(gnu.err().replace(Cli.GNU_CP + ": ", "cpx: ").replace("gnu-", "cpx-"), cpx.err(), () -> cpx.toString());
        assertFalse(Files.exists(root.resolve("cpx-" + name).resolve("d/close-fails.txt")), "the file that failed is removed");
        Files.delete(root.resolve("gnu-" + name).resolve("d/close-fails.txt"));
        Trees.assertSameTree(root.resolve("gnu-" + name), root.resolve("cpx-" + name), Detail.MODE);
    }

    /** The same for a file operand, into a directory that exists (under a temporary name there) and to a new name. */
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
        Files.createDirectories(root.resolve("gnu-" + name));
        Files.createDirectories(root.resolve("cpx-" + name));
        String gnuTarget = how.equals("into") ? "gnu-" + name : "gnu-" + name + "/copy-close-fails";
        String cpxTarget = how.equals("into") ? "cpx-" + name : "cpx-" + name + "/copy-close-fails";
        Cli.Result gnu = Cli.gnu(root, file.toString(), gnuTarget);
        Cli.Result cpx = Cli.cpx(root, "--engine=" + engine, file.toString(), cpxTarget);
        assertEquals(1, gnu.exit(), gnu::toString);
        assertEquals(gnu.exit(), cpx.exit(), () -> "GNU cp: " + gnu + "\ncpx: " + cpx);
        assertEquals(gnu.err().replace(Cli.GNU_CP + ": ", "cpx: ").replace("gnu-", "cpx-"), cpx.err(), () -> cpx.toString());
        try (var left = Files.list(root.resolve("cpx-" + name))) {
            assertEquals(List.of(), left.toList(), "nothing is left of the file, not even under a temporary name");
        }
    }

    @ParameterizedTest(name = "[{0}] engine={1}")
    @CsvSource({"-r, native", "-r, nio", "-a, native", "-a, nio"})
    void copiesANewTreeAsGnuCpDoes(String option, String engine) throws Exception {
        Path root = fuse.root();
        String name = option.substring(1) + "-" + engine;
        Cli.Result gnu = Cli.gnu(root, option, src.toString(), "gnu-" + name);
        Cli.Result cpx = Cli.cpx(root, "--engine=" + engine, option, src.toString(), "cpx-" + name);
        assertEquals(gnu.exit(), cpx.exit(), () -> "GNU cp: " + gnu + "\ncpx: " + cpx);
        assertEquals(gnu.err().replace(Cli.GNU_CP + ": ", "cpx: "), cpx.err(), () -> cpx.toString());
        Trees.assertSameTree(root.resolve("gnu-" + name), root.resolve("cpx-" + name), Detail.MODE);
        // Once more: the tree is there now, so the copy goes into it (cpx-NAME/src), as GNU's does.
        Cli.Result gnu2 = Cli.gnu(root, option, src.toString(), "gnu-" + name);
        Cli.Result cpx2 = Cli.cpx(root, "--engine=" + engine, option, src.toString(), "cpx-" + name);
        assertEquals(gnu2.exit(), cpx2.exit(), () -> "GNU cp: " + gnu2 + "\ncpx: " + cpx2);
        Trees.assertSameTree(root.resolve("gnu-" + name), root.resolve("cpx-" + name), Detail.MODE);
        try (var left = Files.list(root)) {
            assertEquals(0, left.filter(p -> p.getFileName().toString().startsWith(".")).count(), "nothing staged is left");
        }
    }
}
