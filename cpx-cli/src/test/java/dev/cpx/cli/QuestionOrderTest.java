package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code -i} over a tree that holds older copies of some of the files: the questions come in GNU cp's
 * order (each directory's entries by inode number, a subdirectory that existed copied before the
 * entries after it), so that answers given in advance ({@code printf 'y\nn\n' | cp -ri ...}) go to the files they
 * were meant for. GNU cp is the judge in the same scene, the destination restored between the two
 * runs: the order follows the source's inode numbers, which differ between two scenes built alike
 * (the differential suite's clones), so a comparison across scenes would not be one.
 */
class QuestionOrderTest {

    /**
     * Old copies here and there, nested directories, one of 70 entries (more than a worker's chunk of
     * 64), and new directories among them (copied by all the workers meanwhile: nothing to ask there),
     * one of them ({@code s/fresh}, made first) holding the first names of files whose later names are
     * over old copies in a directory that existed: with {@code -a} their questions too come in order.
     */
    static final String TREE = """
            mkdir -p s/fresh s/sub/deep s/big s/other D/s/sub/deep D/s/big
            for f in a b c d e; do echo new-$f > s/$f; echo new-$f > s/sub/$f; echo new-$f > s/sub/deep/$f; done
            for f in a c e; do echo old > D/s/$f; echo old > D/s/sub/$f; done
            for f in b d; do echo old > D/s/sub/deep/$f; done
            for n in $(seq 1 70); do echo new-$n > s/big/f$n; done
            for n in 3 5 8 13 21 34 55 60 61 62 63 64 65 66 67 68 69 70; do echo old > D/s/big/f$n; done
            echo new > top; echo old > D/top
            mkdir -p s/other/x s/sub/new
            for n in $(seq 1 80); do echo new-$n > s/other/f$n; echo new-$n > s/other/x/f$n; echo new > s/sub/new/f$n; done
            for n in 1 2 3 4 5 6 7 8; do yes link-$n | head -c 600000 > s/fresh/h$n; ln s/fresh/h$n s/sub/h$n; echo old > D/s/sub/h$n; done
            for n in 1 2 3; do echo link-g$n > s/sub/g$n; ln s/sub/g$n s/fresh/g$n; echo old > D/s/sub/g$n; done
            cp -a D D.before
            """;

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        String alternate = "y\nn\n".repeat(30);
        String mostlyNo = "n\nn\ny\n".repeat(20);
        for (String engine : List.of("native", "nio")) {
            for (String options : List.of("-ri", "-riv", "-ai", "-rib", "-ri -j 8", "-ai -j 8", "-ri --preserve=links")) {
                for (String operands : List.of("s D", "top s D", "s top D", "s/sub D/s")) {
                    for (String answers : List.of(alternate, mostlyNo)) {
                        cases.add(Arguments.of(engine, options, operands, answers));
                    }
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: cp {1} {2}, answers {3}")
    @MethodSource("cases")
    void asksInGnusOrder(String engine, String options, String operands, String answers, @TempDir Path scene)
            throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp is not at /usr/bin/cp");
        Cli.Result built = Cli.runScript(scene, Map.of(), null, TREE, List.of());
        assertEquals(0, built.exit(), built.toString());
        // GNU cp has no -j: it gets the same command without it.
        List<String> gnuArgs = words(options.replace(" -j 8", "") + " " + operands);
        List<String> cpxArgs = words("--engine=" + engine + " " + options + " " + operands);
        Map<String, String> env = Map.of("LC_ALL", "C", "PATH", Cli.GNU_CP.getParent() + ":/bin");

        // Run as "cp", which its messages are named after, as cpx's are here.
        Cli.Result gnu = Cli.runWithInput(scene, env, List.of("cp"), answers, gnuArgs.toArray(String[]::new));
        Map<String, String> gnuTree = tree(scene.resolve("D"));
        Cli.Result restored = Cli.runScript(scene, Map.of(), null, "rm -rf D && cp -a D.before D", List.of());
        assertEquals(0, restored.exit(), restored.toString());
        Cli.Result cpx = Cli.runWithInput(scene, env, Cli.javaCommand("cp"), answers, cpxArgs.toArray(String[]::new));

        assertEquals(gnu.err(), cpx.err(), "the questions, in order");
        // (-v's lines of the new directories' entries come as those are copied: docs/gnu-compatibility.md.)
        assertEquals(sorted(gnu.out()), sorted(cpx.out()), "the -v lines");
        assertEquals(gnu.exit(), cpx.exit());
        assertEquals(gnuTree, tree(scene.resolve("D")), "which files were replaced (and backed up)");
    }

    private static List<String> sorted(String lines) {
        return lines.lines().sorted().toList();
    }

    private static List<String> words(String s) {
        return List.of(s.trim().split(" +"));
    }

    /** Every entry under {@code root}: a file's contents, or "dir". */
    private static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                String name = root.relativize(p).toString();
                entries.put(name, Files.isDirectory(p) ? "dir" : new String(Files.readAllBytes(p), StandardCharsets.UTF_8));
            }
        }
        return entries;
    }
}
