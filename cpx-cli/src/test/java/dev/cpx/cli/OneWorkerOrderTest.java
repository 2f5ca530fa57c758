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
 * With one worker ({@code -j 1}) a tree is copied in GNU cp's order, depth first: {@code -v}'s lines
 * and the messages of failures in several directories come exactly as GNU cp's, line for line (with
 * more workers a directory's tree is copied beside the entries after it, docs/gnu-compatibility.md).
 * GNU cp is the judge in the same scene, the destination restored between the two runs: each
 * directory's entries come in the order of the source's inode numbers, which differ between two
 * scenes built alike.
 */
class OneWorkerOrderTest {

    /**
     * Nested directories (four deep), one of 70 entries (more than a worker's chunk of 64), links (one
     * made last to a file made first: followed, with {@code -L} or {@code -l}, its target's inode is the
     * lowest, its own the highest, and GNU orders by its own; one that leads nowhere), a file operand of
     * 2 MB (large enough to be copied on a task of its own by several workers), and an older copy in D
     * with two things in the way: a file where the source has a directory ({@code other}) and a
     * directory where it has a file ({@code sub/deep/e}).
     */
    static final String TREE = """
            echo first > first
            mkdir -p s/a/aa/aaa s/b s/big s/other/x s/sub/deep s/empty D/s/sub/deep/e D/s/big
            for f in a b c d e; do for d in s s/a s/a/aa s/a/aa/aaa s/b s/sub s/sub/deep s/other/x; do echo new-$f > $d/$f; done; done
            for n in $(seq 1 70); do echo new-$n > s/big/f$n; done
            ln -s a s/link; ln -s nowhere s/b/dangling; ln s/a/b s/sub/hard
            echo old > D/s/c; echo old > D/s/sub/d; echo old > D/s/big/f7; echo old > D/s/other
            yes new | head -c 2000000 > top; echo old > D/top
            ln -s "$PWD/first" s/a/aa/to-first
            cp -a D D.before
            """;

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (String engine : List.of("native", "nio")) {
            for (String options : List.of("-rv", "-av", "-rvb", "-rv --parents", "-rLv", "-rlv")) {
                for (String operands : List.of("s D", "s new", "top s D", "s/a s/b top D")) {
                    cases.add(Arguments.of(engine, options, operands));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: cp {1} {2}")
    @MethodSource("cases")
    void copiesInGnusOrder(String engine, String options, String operands, @TempDir Path scene) throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp is not at /usr/bin/cp");
        Cli.Result built = Cli.runScript(scene, Map.of(), null, TREE, List.of());
        assertEquals(0, built.exit(), built.toString());
        // GNU cp has no -j.
        List<String> gnuArgs = words(options + " " + operands);
        List<String> cpxArgs = words("--engine=" + engine + " -j 1 " + options + " " + operands);
        Map<String, String> env = Map.of("LC_ALL", "C", "PATH", Cli.GNU_CP.getParent() + ":/bin");

        // Run as "cp", which its messages are named after, as cpx's are here.
        Cli.Result gnu = Cli.run(scene, env, List.of("cp"), gnuArgs.toArray(String[]::new));
        Map<String, String> gnuTree = tree(scene, "D", "new");
        Cli.Result restored = Cli.runScript(scene, Map.of(), null, "rm -rf D new && cp -a D.before D", List.of());
        assertEquals(0, restored.exit(), restored.toString());
        Cli.Result cpx = Cli.run(scene, env, Cli.javaCommand("cp"), cpxArgs.toArray(String[]::new));

        assertEquals(gnu.out(), cpx.out(), "-v's lines, in order");
        assertEquals(gnu.err(), cpx.err(), "the messages, in order");
        assertEquals(gnu.exit(), cpx.exit());
        assertEquals(gnuTree, tree(scene, "D", "new"), "the copy");
    }

    private static List<String> words(String s) {
        return List.of(s.trim().split(" +"));
    }

    /** Every entry under the {@code roots} of {@code scene} that exist: a file's contents, a link's target, or "dir". */
    private static Map<String, String> tree(Path scene, String... roots) throws IOException {
        Map<String, String> entries = new TreeMap<>();
        for (String root : roots) {
            if (!Files.exists(scene.resolve(root))) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(scene.resolve(root))) {
                for (Path p : (Iterable<Path>) walk::iterator) {
                    String name = scene.relativize(p).toString();
                    entries.put(name, Files.isSymbolicLink(p) ? "-> " + Files.readSymbolicLink(p)
                            : Files.isDirectory(p) ? "dir" : new String(Files.readAllBytes(p), StandardCharsets.UTF_8));
                }
            }
        }
        return entries;
    }
}
