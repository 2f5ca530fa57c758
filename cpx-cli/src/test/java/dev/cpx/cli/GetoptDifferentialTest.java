package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.testing.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The command line read as GNU cp reads it ({@link Getopt}): generated argument vectors — each
 * form an option can be written in (clustered, abbreviated, its value attached, after {@code =}, or
 * the next word even where that looks like an option), words that only look like options
 * ({@code -5}, {@code -1.5}), errors, {@code --} and {@code -} — each placed before, between and
 * after the operands, also under {@code POSIXLY_CORRECT}. {@code /usr/bin/cp} judges each in the
 * same scene: exit status, standard output and error, and the tree left behind, for each engine.
 */
class GetoptDifferentialTest {

    /** The option words, alone or with their value words; only options GNU cp 9.1 has. */
    private static final List<List<String>> WORDS = List.of(
            List.of("-v"), List.of("--verbose"), List.of("--verb"), List.of("-vb"), List.of("-bv"), List.of("-n"),
            List.of("-u"), List.of("-f"), List.of("-T"), List.of("-rv"), List.of("--path"), List.of("--pa"),
            List.of("--parents"), List.of("-S~"), List.of("-S="), List.of("-S", "-v"), List.of("-bS", "-r"),
            List.of("-S", "--verb"), List.of("--suffix", "--verbose", "-b"), List.of("--suffix=-x", "-b"),
            List.of("--suf=.old", "-b"), List.of("-S", ""), List.of("-S", "a/b", "-b"), List.of("-S", "x/", "-b"),
            List.of("-td"), List.of("-t", "d"), List.of("-t", "-v"), List.of("--target-directory=d"),
            List.of("--target", "d"), List.of("-t", "--", "-v"), List.of("--backup=numbered"), List.of("--backup", "-v"),
            List.of("-5"), List.of("-1.5"), List.of("-0x10"), List.of("-v5"), List.of("-"), List.of("--"),
            List.of("--bogus"), List.of("--bogus=1"), List.of("---"), List.of("--=x"), List.of("--p"), List.of("--p=x"),
            List.of("--verbose=yes"), List.of("--verb=yes"), List.of("--no-clob=x"), List.of("--reflink=bad"),
            List.of("--reflink=bad", "--bogus"), List.of("--bogus", "--reflink=bad"), List.of("--sparse", "never"),
            List.of("-S"), List.of("--suffix"), List.of("-vt"), List.of("--target-dir"));

    /** The operands the words are placed around: a file over a file, a file into a directory. */
    private static final List<List<String>> OPERANDS = List.of(List.of("a", "b"), List.of("a", "d"), List.of("-5", "b"));

    static Stream<Arguments> commandLines() {
        List<Arguments> cases = new ArrayList<>();
        for (int w = 0; w < WORDS.size(); w++) {
            List<String> words = WORDS.get(w);
            List<String> operands = OPERANDS.get(w % OPERANDS.size());
            for (int at = 0; at <= operands.size(); at++) {
                List<String> args = new ArrayList<>(operands.subList(0, at));
                args.addAll(words);
                args.addAll(operands.subList(at, operands.size()));
                cases.add(Arguments.of(args, at == 1 && w % 2 == 0));
            }
        }
        // Two words together: the second's form read after the first's value (or its missing one).
        for (int w = 0; w + 7 < WORDS.size(); w += 3) {
            List<String> args = new ArrayList<>(WORDS.get(w));
            args.addAll(WORDS.get(w + 7));
            args.addAll(List.of("a", "d"));
            cases.add(Arguments.of(args, false));
        }
        return cases.stream();
    }

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{index}: {0} POSIXLY_CORRECT={1}")
    @MethodSource("commandLines")
    void readAsGnuCpReadsIt(List<String> args, boolean posixlyCorrect) throws Exception {
        assertTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp is the judge here: " + Cli.GNU_CP);
        String[] argv = args.toArray(String[]::new);
        Map<String, String> env = new HashMap<>();
        if (posixlyCorrect) {
            env.put("POSIXLY_CORRECT", "1");
        }
        Path gnuDir = scene(dir.resolve("gnu"));
        Cli.Result gnu = Cli.run(gnuDir, env, List.of(Cli.GNU_CP.toString()), argv);
        for (String engine : List.of("native", "nio")) {
            Path config = Files.createDirectories(dir.resolve("config-" + engine).resolve("cpx"));
            Files.writeString(config.resolve("cpx.properties"), "engine=" + engine + "\n");
            Map<String, String> cpxEnv = new HashMap<>(env);
            cpxEnv.put("XDG_CONFIG_HOME", config.getParent().toString());
            Path cpxDir = scene(dir.resolve("cpx-" + engine));
            Cli.Result cpx = Cli.cpxAs(Cli.GNU_CP.toString(), cpxDir, cpxEnv, argv);
            String what = args + " engine=" + engine + (posixlyCorrect ? " POSIXLY_CORRECT" : "") + "\ncpx: " + cpx
                    + "\nGNU: " + gnu;
            assertEquals(gnu.exit(), cpx.exit(), what);
            assertEquals(gnu.err(), cpx.err(), what);
            assertEquals(gnu.out(), cpx.out(), what);
            Trees.assertSameTree(gnuDir, cpxDir, Trees.Detail.MODE);
        }
    }

    /** a (new), b (old), d/ (empty), and a file named -5. */
    private static Path scene(Path d) throws Exception {
        Files.createDirectories(d.resolve("d"));
        Files.writeString(d.resolve("a"), "new");
        Files.setAttribute(d.resolve("a"), "unix:mode", 0604);
        Files.writeString(d.resolve("b"), "old");
        Files.writeString(d.resolve("-5"), "five");
        return d;
    }
}
