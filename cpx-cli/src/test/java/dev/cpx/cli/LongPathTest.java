package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Entries whose source or copy path reaches {@code PATH_MAX} (4,096 bytes), against GNU cp, for
 * both engines. GNU names every file by its whole path, so it fails each such entry at its first
 * call: the source's {@code stat} ("cannot stat"), or, for the copy, its {@code stat} in a directory
 * that existed ("cannot stat") or its creation in one it made ("cannot create regular file", ...).
 * cpx reaches entries through the directories it holds, where no such limit applies, and must stop
 * where GNU stops: the same messages, exit status and tree. (The trees are read with {@code find},
 * which walks them by descriptor; Java's file API cannot reach paths that long.)
 */
class LongPathTest {

    @TempDir
    Path dir;

    /** Entries of each kind, with names of 12 bytes, in the deepest directory of a scene. */
    private static final String ENTRIES = "echo data > FFFFFFFFFFFF; mkdir DDDDDDDDDDDD; echo in > DDDDDDDDDDDD/inside;"
            + " ln -s target LLLLLLLLLLLL; mkfifo PPPPPPPPPPPP; echo h > HHHHHHHHHHHH; ln HHHHHHHHHHHH hhhhhhhhhhhh";

    /** The trees are removed by {@code rm}: JUnit's clean-up resolves each directory's real path, quadratic in depth here. */
    @AfterEach
    void removeTrees() throws Exception {
        run(dir, "rm -rf -- * .[!.]*");
    }

    static Stream<Arguments> scenes() {
        List<Arguments> scenes = new ArrayList<>();
        for (String engine : List.of("native", "nio")) {
            for (String side : List.of("source", "copy")) {
                for (String options : List.of("-r", "-a", "-rL", "-rl")) {
                    scenes.add(Arguments.of(engine, side, options, false));
                }
                scenes.add(Arguments.of(engine, side, "-r", true));
                scenes.add(Arguments.of(engine, side, "-a", true));
            }
        }
        return scenes.stream();
    }

    @ParameterizedTest(name = "engine={0}, long {1} path, {2}, into an existing copy: {3}")
    @MethodSource("scenes")
    void entriesBeyondGnuReachFailAsGnuFails(String engine, String side, String options, boolean existing) throws Exception {
        // The long side's prefix is 40 bytes longer: its entries reach PATH_MAX, the other side's do not.
        String pad = "x".repeat(40);
        String source = side.equals("source") ? "s" + pad : "s";
        String copyParent = side.equals("copy") ? "t" + pad : "t";
        // Both programs get the operands as written here, relative: the kernel's limit is on the paths they pass.
        int longSide = side.equals("source") ? source.length() : (copyParent + "/gnu").length();
        // The deepest directory's path stays under PATH_MAX on both sides; its entries' paths on the long side reach it.
        int depth = (4096 - 1 - 13 - longSide) / 2 + 1;
        // Made by the shell, one name at a time (mkdir -p) and from the scene (cd): absolute, the paths are too long.
        run(dir, "mkdir -p " + source + "/" + chain(depth) + " " + copyParent + " && cd -P " + source + "/" + chain(depth) + " && " + ENTRIES);
        List<String> args = new ArrayList<>(List.of(options.split(" ")));
        if (existing) {
            args.add("-T");
        }
        args.add(source);
        String gnuCopy = copyParent + "/gnu";
        String cpxCopy = copyParent + "/cpx";
        if (existing) {
            run(dir, "mkdir -p " + gnuCopy + "/" + chain(depth) + " " + cpxCopy + "/" + chain(depth));
        }
        List<String> gnuArgs = new ArrayList<>(args);
        gnuArgs.add(gnuCopy);
        Cli.Result gnu = Cli.gnu(dir, gnuArgs.toArray(String[]::new));
        List<String> cpxArgs = new ArrayList<>(List.of("--engine=" + engine));
        cpxArgs.addAll(args);
        cpxArgs.add(cpxCopy);
        Cli.Result cpx = Cli.cpxAs("cp", dir, Map.of(), cpxArgs.toArray(String[]::new));

        String context = "GNU:\n" + gnu + "\ncpx:\n" + cpx;
        assertEquals(1, gnu.exit(), () -> "the scene reaches PATH_MAX for GNU cp\n" + context);
        assertEquals(gnu.exit(), cpx.exit(), context);
        // The same lines; their order follows each program's walk of the directory (GNU's readdir order on tmpfs).
        assertEquals(sortedLines(gnu.err().replace(Cli.GNU_CP + ": ", "cp: ").replace(gnuCopy, "COPY")), sortedLines(cpx.err().replace(cpxCopy, "COPY")), context);
        assertEquals(tree(gnuCopy), tree(cpxCopy), context);
    }

    /**
     * A new copy of 250 bytes is made under a staging name of 46 (a digest: {@code .NAME.cpx-part}
     * would pass 255 bytes), so a path beyond GNU's reach in the copy is within it at the staging
     * name: it must still be refused, as GNU's final path is.
     */
    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aCopyStagedUnderAShorterNameStopsWhereGnuStops(String engine) throws Exception {
        String name = "n".repeat(250);
        // Entries of the deepest directory: 250 + 2 * 1917 + 13 = 4,097 bytes in the copy, 3,848 in the source.
        run(dir, "mkdir -p s/" + chain(1917) + " && cd -P s/" + chain(1917) + " && " + ENTRIES);
        Cli.Result gnu = Cli.gnu(dir, "-r", "s", name);
        // GNU's copy set aside, so that cpx makes the same new copy under the same name (its messages name it).
        run(dir, "mv " + name + " gnu");
        Cli.Result cpx = Cli.cpxAs("cp", dir, Map.of(), "--engine=" + engine, "-r", "s", name);
        String context = "GNU:\n" + gnu + "\ncpx:\n" + cpx;
        assertEquals(1, gnu.exit(), () -> "the scene reaches PATH_MAX for GNU cp\n" + context);
        assertEquals(gnu.exit(), cpx.exit(), context);
        assertEquals(sortedLines(gnu.err().replace(Cli.GNU_CP + ": ", "cp: ")), sortedLines(cpx.err()), context);
        assertEquals(tree("gnu"), tree(name), context);
    }

    private static List<String> sortedLines(String s) {
        return s.lines().sorted().toList();
    }

    /** {@code d/d/.../d}, {@code depth} names. */
    private static String chain(int depth) {
        return String.join("/", java.util.Collections.nCopies(depth, "d"));
    }

    /** Each entry below {@code root}: its path from there, type and link count, sorted. */
    private String tree(String root) throws Exception {
        return run(dir, "cd " + root + " && find . -printf '%P %y %n\\n' | LC_ALL=C sort").out();
    }

    private static Cli.Result run(Path in, String script) throws Exception {
        Cli.Result r = Cli.runScript(in, Map.of(), null, script, List.of());
        assertEquals(0, r.exit(), r::toString);
        return r;
    }
}
