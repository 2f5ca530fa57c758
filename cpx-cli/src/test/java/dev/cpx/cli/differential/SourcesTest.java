package dev.cpx.cli.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * What GNU cp remembers across the operands of one command: sources named twice (copy.c warns
 * "source file specified more than once" unless backing up), destinations it has just made
 * ("will not overwrite just-created", "will not copy through just-created symlink", both checked
 * for command-line operands only and skipped with numbered backups), the inodes it has copied
 * (hard links kept with {@code --preserve=links}, {@code -a}, and with {@code -L}/{@code -H} the
 * inodes the symlinks lead to), and copies into the source itself.
 */
class SourcesTest {

    static final String DUPLICATES = """
            echo A > a
            ln a b
            ln -s a sl
            mkdir -p s/sub dir d
            echo S > s/f
            echo T > s/sub/g
            """;

    static List<Row> duplicateSources() {
        List<Row> rows = new ArrayList<>();
        List<String> operands = List.of("a b dir/", "a ./a dir/", "a a d/", "a sl dir/", "sl sl dir/", "sl a dir/",
                "s s dir/", "s ./s dir/", "s/ s dir/");
        List<String> options = List.of("", "-d", "--preserve=links", "-r", "--backup=numbered", "-b");
        for (String o : operands) {
            for (String opt : options) {
                rows.add(Row.cp("duplicate-source", DUPLICATES, opt, o).rule("copy.c: source specified more than once"));
            }
        }
        return rows;
    }

    /** How each of a/x and b/x is made: a file, a symlink to an existing ../t, a dangling one, a directory. */
    static final Map<Character, String> KINDS = Map.of(
            'F', "echo payload-%s > %s/x\n",
            'S', "ln -s ../t %2$s/x\necho i > t\n",
            'D', "ln -s ../t %2$s/x\n",
            'R', "mkdir %2$s/x\necho in-%1$s > %2$s/x/same\n");

    static List<Row> justCreated() {
        List<Row> rows = new ArrayList<>();
        List<String> pairs = List.of("FF", "SF", "DF", "RR", "FR", "RF", "SS");
        List<String> options = List.of("", "-f", "-b", "--backup=numbered", "-l", "--remove-destination", "-dR", "-r");
        for (String pair : pairs) {
            String setup = "mkdir a b c\n" + String.format(KINDS.get(pair.charAt(0)), "a", "a")
                    + String.format(KINDS.get(pair.charAt(1)), "b", "b");
            if (pair.equals("DF") || pair.equals("SS")) {
                setup = setup.replace("echo i > t\n", "");
                if (pair.equals("SS")) {
                    setup += "echo i > t\n";
                }
            }
            for (String opt : options) {
                rows.add(Row.cp("just-created", setup, opt, "a/x b/x c").variant(describe(pair))
                        .rule("copy.c: will not overwrite just-created / copy through just-created symlink"));
            }
        }
        return rows;
    }

    private static String describe(String pair) {
        StringBuilder sb = new StringBuilder();
        for (char c : pair.toCharArray()) {
            if (sb.length() > 0) {
                sb.append(" and ");
            }
            sb.append(switch (c) {
                case 'F' -> "file";
                case 'S' -> "symlink";
                case 'D' -> "dangling symlink";
                default -> "dir";
            });
        }
        return sb.toString();
    }

    static final String LINKED = """
            echo x > f
            ln f hl
            ln -s f sl1
            ln -s f sl2
            mkdir d
            """;

    static final String LINKED_TREE = """
            mkdir -p s/in t
            echo x > s/a
            for n in b c d e; do ln s/a s/$n; done
            ln s/a s/in/f
            ln -s a s/sl
            echo y > s/lone
            """;

    static List<Row> preserveLinks() {
        List<Row> rows = new ArrayList<>();
        List<String> operands = List.of("f hl d/", "sl1 sl2 d/", "f sl1 d/", "sl1 f d/");
        List<String> options = List.of("", "-L", "-H", "--preserve=links", "-L --preserve=links", "-H --preserve=links", "-a", "-l",
                "-lL", "-lH");
        for (String o : operands) {
            for (String opt : options) {
                rows.add(Row.cp("preserve-links", LINKED, opt, o).rule("copy.c: remember_copied (hard links of command-line operands)"));
            }
        }
        for (String opt : List.of("-a", "-r", "-r --preserve=links", "-rL --preserve=links", "-rl", "-al", "-aH", "-a --no-preserve=links")) {
            Row row = Row.cp("preserve-links", LINKED_TREE, opt, "s t").variant("five hard links in s")
                    .rule("copy.c: remember_copied (hard links in a tree)");
            rows.add(opt.contains("--no-preserve=links") ? row.noAtime() : row);
        }
        // Re-runs onto an up-to-date copy: -u skips each name but still records it, so the names stay linked.
        String copied = LINKED_TREE + "/usr/bin/cp -a s t/\n";
        for (String opt : List.of("-au", "-u --preserve=links", "-ru")) {
            Row upToDate = Row.cp("preserve-links", copied, opt, "s t").variant("t up to date")
                    .rule("copy.c: -u keeps recording hard links it skips");
            // Without -p the names are linked again to the first one met: its directory keeps its time.
            rows.add(opt.equals("-ru") ? upToDate.mtimeDependsOnWalkOrder("t/s", "t/s/in") : upToDate);
            Row unlinked = Row.cp("preserve-links", copied + "rm t/s/c\necho x > t/s/c\n", opt, "s t").variant("t/s/c unlinked")
                    .rule("copy.c: -u keeps recording hard links it skips");
            rows.add(opt.equals("-ru") ? unlinked.mtimeDependsOnWalkOrder("t/s", "t/s/in") : unlinked);
            Row older = Row.cp("preserve-links", copied, opt, "s t").variant("t older").post("old t/s/*")
                    .rule("copy.c: -u keeps recording hard links it skips");
            rows.add(opt.equals("-ru") ? older.mtimeDependsOnWalkOrder("t/s", "t/s/in") : older);
        }
        // A later name linked over what is there: GNU removes that and says so with -v ("removed 't/s/b'").
        // (All names in one directory: which one is met first does not depend on the walk's order.)
        for (String opt : List.of("-auv", "-uv --preserve=links", "-av", "-rv --preserve=links")) {
            rows.add(Row.cp("preserve-links", copied + "rm -r s/in t/s/in\n", opt, "s t").variant("t there, -v")
                    .rule("copy.c: create_hard_link, replacing, tells -v what it removed"));
        }
        return rows;
    }

    static final String SELF = """
            mkdir -p src/sub/deeper
            echo f > src/f
            echo g > src/sub/g
            """;

    static List<Row> intoSelf() {
        List<Row> rows = new ArrayList<>();
        for (String o : List.of("src/. src", "src src", "src src/sub", "src/ src/sub/", "src/sub src", "src/sub/.. src/sub",
                "src/. src/.")) {
            for (String opt : List.of("-r", "-a", "-rl")) {
                Row row = Row.cp("into-self", SELF, opt, o).rule("copy.c: cannot copy a directory into itself");
                String copy = Map.of("src src", "src/src", "src src/sub", "src/sub/src", "src/ src/sub/", "src/sub/src",
                        "src/sub/.. src/sub", "src").get(o);
                if (copy != null) {
                    // What is copied before the walk meets its own copy depends on inode numbers, which differ
                    // between the twin scenes (with -l, so do the link counts of the sources linked so far);
                    // cp -r d/.. d stops one level sooner in cpx (README).
                    row.contentsDependOnInodeOrder(opt.equals("-rl") ? "src" : copy);
                }
                rows.add(row);
            }
        }
        rows.add(Row.cp("into-self", "mkdir -p a/x b/x existing\necho 1 > a/x/same\necho 2 > b/x/same\n", "-r",
                "a/x b/x existing/").variant("both holding same").rule("copy.c: just-created applies to operands, not their contents"));
        return rows;
    }

    static final String OPERANDS = """
            mkdir a b c d
            echo A > a/in
            echo x > f
            ln -s nowhere dangling
            """;

    /**
     * Operands that are each refused or reported on their own, mixed with ones that are copied: the
     * messages come in the operands' order, as GNU cp copies one operand after the other (cpx copies
     * them at once, but starts them in order).
     */
    static List<Row> operandOrder() {
        List<Row> rows = new ArrayList<>();
        for (String o : List.of("a nope b f nope2 c d/", "c b a d/", "nope3 a f b nope4 dangling d/", "f a/ b/ nope/ c d")) {
            for (String opt : List.of("", "-r", "-v", "-n", "-u", "-s", "-l")) {
                rows.add(Row.cp("operand-order", OPERANDS, opt, o).unordered(false).rule("cp.c: do_copy copies the operands in order"));
            }
        }
        return rows;
    }

    /** Files copied over older ones in d, two of them large enough to be copied on a worker of their own. */
    static final String QUESTIONS = """
            mkdir d a
            for n in 1 2 3 4 5 6 7 8 9; do echo new$n > f$n; echo old$n > d/f$n; done
            echo A > a/in
            yes big1 | head -c 3000000 > g1; yes old | head -c 100 > d/g1
            ln f1 f1b; touch -d 2000-01-01 f2 f5 g1
            yes big2 | head -c 2000000 > g2; yes old | head -c 100 > d/g2
            echo new > h1; echo old > d/h1
            yes big3 | head -c 3000000 > k1; ln k1 k1b; echo old > d/k1b
            """;

    /**
     * The questions of {@code -i} and the lines of {@code -v} about file operands, in the operands'
     * order, so that answers given in advance (a script's, {@code yes n}) go to the files they were
     * meant for: the files copied over and left as they were are compared with GNU cp's.
     */
    static List<Row> operandQuestions() {
        List<Row> rows = new ArrayList<>();
        List<String> operands = List.of("f1 f2 f3 f4 f5 f6 f7 f8 f9 d/", "f9 f8 f7 f6 f5 f4 f3 f2 f1 d",
                "f1 g1 f2 g2 f3 f4 d/", "g1 g2 f1 nope f2 h1 d", "f1 a f2 f3 d/", "-t d f3 f1 f2 g2 f9", "f1 f2 f1b f3 d/");
        List<String> answers = List.of("y\nn\ny\nn\ny\nn\ny\nn\ny\n", "n\nn\ny\ny\nn\ny\nn\nn\ny\n");
        for (String o : operands) {
            for (String opt : List.of("-i", "-iv", "-ibv", "-ir")) {
                for (String in : answers) {
                    rows.add(Row.cp("operand-questions", QUESTIONS, opt, o).stdin(in).unordered(false)
                            .rule("cp.c: do_copy copies the operands in order; copy.c: overwrite_ok asks before each"));
                }
            }
            for (String opt : List.of("-v", "-vn", "-v --backup=numbered", "-vu", "-av", "-v --preserve=links")) {
                // (A directory's copy runs beside the later operands': its contents' lines come in among
                // theirs, as docs/gnu-compatibility.md says.)
                boolean walked = o.contains(" a ") && opt.startsWith("-a");
                rows.add(Row.cp("operand-questions", QUESTIONS, opt, o)
                        .unordered(walked).rule("cp.c: do_copy copies the operands in order; copy.c: emit_verbose"));
            }
        }
        // A large file's first name copied anew, a later name of it over an old file: its question
        // still comes before the next operand's (the copy it is linked to is made first).
        for (String opt : List.of("-ai", "-i --preserve=links", "-iv --preserve=links")) {
            for (String in : answers) {
                rows.add(Row.cp("operand-questions", QUESTIONS, opt, "k1 k1b f3 f4 d/").stdin(in).unordered(false)
                        .rule("cp.c: do_copy copies the operands in order; copy.c: remember_copied, overwrite_ok"));
            }
        }
        return rows;
    }

    /**
     * {@code --parents} and the target operand: a usage error ("the destination must be a directory",
     * then the Try line) only where one file would be copied to another ({@code -T}, or one source and
     * a destination that is not a directory); a {@code -t} directory, or the last of several operands,
     * that is missing or not a directory is reported as a target, as without {@code --parents}.
     */
    static List<Row> parentsTarget() {
        List<Row> rows = new ArrayList<>();
        for (String opt : List.of("--parents", "--parents -r", "-T --parents", "--parents -t d", "--parents -t nope",
                "--parents -t f")) {
            for (String o : List.of("f d", "f nope", "f a nope", "f a f", "f dangling", "a/in f", "a/in d", "f", "f d extra")) {
                rows.add(Row.cp("parents-target", OPERANDS, opt, o).unordered(false).rule("cp.c: do_copy, the target directory"));
            }
        }
        return rows;
    }

    /**
     * Sources written with a trailing slash, with and without {@code --strip-trailing-slashes}, which
     * GNU cp 9.1 applies to sources copied into a directory only: {@code lnk/} there is then the link.
     */
    static List<Row> trailingSlashes() {
        List<Row> rows = new ArrayList<>();
        for (String opt : List.of("--strip-trailing-slashes", "--strip-trailing-slashes -rv", "-rv",
                "--strip-trailing-slashes -rv -t d", "--strip-trailing-slashes -rvT")) {
            // ("a/ lnk/" only with -t d: without it, a would be copied into lnk/, which is a itself, a copy
            // into itself, whose extent differs on purpose: docs/gnu-compatibility.md.)
            List<String> operands = opt.endsWith(" -t d") ? List.of("lnk/", "a/ lnk/", "f/")
                    : opt.endsWith("T") ? List.of("lnk/ new", "a/ new") : List.of("a/ d/", "f/ d", "lnk/ d", "lnk/ f/ d/", "a/ new", "lnk/ new");
            for (String o : operands) {
                rows.add(Row.cp("trailing-slashes", OPERANDS + "ln -s a lnk\n", opt, o).rule("cp.c: do_copy, strip_trailing_slashes"));
            }
        }
        return rows;
    }

    @TestFactory
    Stream<DynamicTest> sourcesWithTrailingSlashes() {
        return Differential.tests(trailingSlashes());
    }

    @TestFactory
    Stream<DynamicTest> parentsAndTheTargetOperand() {
        return Differential.tests(parentsTarget());
    }

    @TestFactory
    Stream<DynamicTest> questionsAndLinesInTheOperandsOrder() {
        return Differential.tests(operandQuestions());
    }

    @TestFactory
    Stream<DynamicTest> messagesInTheOperandsOrder() {
        return Differential.tests(operandOrder());
    }

    @TestFactory
    Stream<DynamicTest> duplicateSource() {
        return Differential.tests(duplicateSources());
    }

    @TestFactory
    Stream<DynamicTest> justCreatedDestinations() {
        return Differential.tests(justCreated());
    }

    @TestFactory
    Stream<DynamicTest> hardLinkBookkeeping() {
        return Differential.tests(preserveLinks());
    }

    @TestFactory
    Stream<DynamicTest> copiesIntoThemselves() {
        return Differential.tests(intoSelf());
    }
}
