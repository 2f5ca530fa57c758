package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.cpx.testing.ReflinkFileSystem;
import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Copies where the file system can share extents (XFS with reflinks, made for the test; see
 * {@link ReflinkFileSystem}), each engine against GNU cp 9.1 run beside it: the same tree, exit
 * status and messages, and the copy's extents shared exactly where GNU's are — by default (GNU cp 9
 * clones by default: {@code --reflink=auto}) and with {@code --reflink=always}, not with
 * {@code --reflink=never}. The nio engine cannot clone: with {@code --reflink=always} it fails each
 * file as GNU cp fails where cloning is impossible; its copies share extents only where the JDK's
 * {@code transferTo} is {@code copy_file_range} (JDK 21 and later), never with {@code --reflink=never}.
 */
class ReflinkTest {

    @TempDir
    static Path dir;

    private static ReflinkFileSystem xfs;
    private static Path root;

    @BeforeAll
    static void mount() throws IOException {
        xfs = ReflinkFileSystem.mount(dir);
        root = xfs.root();
        Path src = Files.createDirectories(root.resolve("src"));
        Files.write(src.resolve("empty"), new byte[0]);
        Files.write(src.resolve("small"), Trees.randomBytes(4097, 1));
        Files.write(Files.createDirectories(src.resolve("sub")).resolve("big"), Trees.randomBytes(3 * 1024 * 1024 + 5, 2));
    }

    @AfterAll
    static void unmount() throws IOException {
        if (xfs != null) {
            xfs.close();
        }
    }

    @ParameterizedTest(name = "[{0}] engine={1}")
    @CsvSource({
        "'', native", "'', nio",
        "--reflink=auto, native", "--reflink=auto, nio",
        "--reflink, native",
        "--reflink=always, native",
        "--reflink=never, native", "--reflink=never, nio",
    })
    void copiesAsGnuCpDoesWhereExtentsCanBeShared(String option, String engine) throws Exception {
        String name = (option.isEmpty() ? "default" : option.substring(2)) + "-" + engine;
        Cli.Result gnu = Cli.gnu(root, args(option, "src", "gnu-" + name));
        Cli.Result cpx = Cli.cpx(root, args("--engine=" + engine + " " + option, "src", "cpx-" + name));
        assertEquals(gnu.exit(), cpx.exit(), () -> "GNU cp: " + gnu + "\ncpx: " + cpx);
        assertEquals(gnu.err().replace("cp: ", "cpx: "), cpx.err(), () -> cpx.toString());
        Trees.assertSameTree(root.resolve("gnu-" + name), root.resolve("cpx-" + name), Detail.MODE, Detail.SPARSE);
        for (String file : List.of("small", "sub/big")) {
            boolean gnuShares = ReflinkFileSystem.sharesExtents(root.resolve("gnu-" + name).resolve(file));
            boolean cpxShares = ReflinkFileSystem.sharesExtents(root.resolve("cpx-" + name).resolve(file));
            assertEquals(!option.equals("--reflink=never"), gnuShares, () -> "GNU cp's copy of " + file);
            // nio: transferTo is copy_file_range from JDK 21 on, which shares extents where it can.
            boolean shares = gnuShares && (engine.equals("native") || Runtime.version().feature() >= 21);
            assertEquals(shares, cpxShares, () -> "cpx's copy of " + file + " shares extents");
        }
    }

    @Test
    void theNioEngineCannotCloneSoReflinkAlwaysFailsEachFile() throws Exception {
        Cli.Result cpx = Cli.cpx(root, "--engine=nio", "--reflink=always", "-r", "src", "nio-always");
        assertEquals(1, cpx.exit(), cpx::toString);
        List<String> lines = new ArrayList<>(TreeFacts.lines(cpx.err()));
        lines.sort(null);
        assertEquals(List.of(
                "cpx: failed to clone 'nio-always/empty' from 'src/empty': Operation not supported",
                "cpx: failed to clone 'nio-always/small' from 'src/small': Operation not supported",
                "cpx: failed to clone 'nio-always/sub/big' from 'src/sub/big': Operation not supported"), lines);
        try (Stream<Path> left = Files.walk(root.resolve("nio-always"))) {
            assertFalse(left.anyMatch(Files::isRegularFile), "no file is left by a failed clone");
        }
    }

    /** {@code options} (space-separated, may be empty) and then {@code -r} and the operands. */
    private static String[] args(String options, String... operands) {
        List<String> all = new ArrayList<>();
        for (String o : options.trim().split(" +")) {
            if (!o.isEmpty()) {
                all.add(o);
            }
        }
        all.add("-r");
        all.addAll(List.of(operands));
        return all.toArray(String[]::new);
    }
}
