package dev.cpx.cli.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Questions and destinations that cannot be followed. {@code -i} asks before each overwrite, in
 * copy.c's order (before "cannot overwrite directory with non-directory" is found out; with an
 * unwritable destination the question names its mode: {@code replace 'f', overriding mode 0000}
 * with {@code -f}/{@code --remove-destination}, {@code unwritable 'f' (mode 0000, ---------); try
 * anyway?} without; root is never asked about the mode), answered y, n or nothing (end of input).
 * A destination that is a symlink GNU cannot follow: dangling (not written through, unless
 * POSIXLY_CORRECT is set), a loop, one that leads through a file, or through a directory the
 * user cannot search ({@code cannot stat}).
 */
class PromptsAndLinksTest {

    static List<Row> prompts() {
        List<Row> rows = new ArrayList<>();
        // GNU's own shape: a/c is a file, b/a/c a directory; the question comes first.
        for (String answer : List.of("y", "n")) {
            for (String opt : List.of("-iR", "-iRf", "-ivR")) {
                rows.add(Row.cp("prompt", "mkdir -p a b/a/c\necho c > a/c\n", opt, "a b").stdin(answer + "\n")
                        .variant("answer " + answer + ", a/c file onto directory b/a/c").rule("copy.c: overwrite_ok before the type checks"));
            }
        }
        List<String[]> dests = List.of(
                new String[] {"file", "echo old > d\n"},
                new String[] {"directory", "mkdir d\n"},
                new String[] {"symlink to a file", "echo other > t\nln -s t d\n"},
                new String[] {"dangling symlink", "ln -s nowhere d\n"});
        List<String> options = List.of("-i", "-if", "-i --remove-destination", "-ib", "-in", "-vi");
        for (String[] d : dests) {
            for (String opt : options) {
                for (String answer : List.of("y", "n", "")) {
                    if (answer.isEmpty() && !opt.equals("-i")) {
                        continue; // end of input: once is enough
                    }
                    rows.add(Row.cp("prompt", "echo new > s\n" + d[1], opt, "s d").stdin(answer.isEmpty() ? "" : answer + "\n")
                            .variant((answer.isEmpty() ? "no answer" : "answer " + answer) + ", onto " + d[0])
                            .post(opt.equals("-iu") ? "old s" : "").rule("copy.c: overwrite_ok"));
                }
            }
        }
        // An unwritable destination: the question names the mode, except to root.
        for (boolean user : List.of(true, false)) {
            for (String opt : List.of("-i", "-if", "-i --remove-destination", "-ib", "", "-f", "--remove-destination")) {
                for (String answer : opt.startsWith("-i") ? List.of("y", "n") : List.of("y")) {
                    rows.add(Row.cp("prompt", "echo a > a\necho f > f\n", opt, "a f").stdin(answer + "\n").unprivileged(user)
                            .post("chmod 0000 f").variant("answer " + answer + ", f mode 0000, " + (user ? "as cpxtest" : "as root"))
                            .rule("copy.c: overwrite_ok (unwritable destination)"));
                }
            }
        }
        return rows;
    }

    static List<Row> destinationLinks() {
        List<Row> rows = new ArrayList<>();
        List<String[]> kinds = List.of(
                new String[] {"dangling", "ln -s nowhere d\n", ""},
                new String[] {"self loop", "ln -s d d\n", ""},
                new String[] {"two-link loop", "ln -s d2 d\nln -s d d2\n", ""},
                new String[] {"through a file", "echo x > file\nln -s file/x d\n", ""},
                new String[] {"into a missing directory", "ln -s nodir/x d\n", ""},
                new String[] {"through an unsearchable directory", "mkdir p\necho t > p/t\nln -s p/t d\n", "chmod 0 p"});
        List<String> options = List.of("", "-f", "--remove-destination", "-b", "-n", "-i", "-l");
        for (String[] k : kinds) {
            for (boolean user : List.of(false, true)) {
                if (user && !(k[0].equals("dangling") || k[0].contains("loop") || k[0].contains("unsearchable"))) {
                    continue;
                }
                for (String opt : options) {
                    rows.add(Row.cp("dest-symlink", "echo a > a\n" + k[1], opt, "a d").post(k[2]).unprivileged(user)
                            .stdin(opt.equals("-i") ? "y\n" : null).variant(k[0] + (user ? ", as cpxtest" : ""))
                            .rule("copy.c: destination symlink that cannot be followed"));
                }
            }
            for (String opt : List.of("", "-f")) {
                rows.add(Row.cp("dest-symlink", "echo a > a\n" + k[1], opt, "a d").post(k[2]).env("POSIXLY_CORRECT", "1")
                        .variant(k[0] + ", POSIXLY_CORRECT=1").rule("copy.c: POSIXLY_CORRECT writes through a dangling symlink"));
            }
        }
        // A recursive copy meeting such links inside the destination tree.
        for (String opt : List.of("-r", "-a", "-rf", "-r --remove-destination")) {
            rows.add(Row.cp("dest-symlink", "mkdir -p s t/s\necho a > s/a\necho b > s/b\nln -s nowhere t/s/a\nln -s b t/s/b\n", opt, "s t")
                    .variant("inside a tree: dangling and loop").rule("copy.c: destination symlink that cannot be followed"));
        }
        return rows;
    }

    /**
     * Links made over an earlier copy ({@code -l}, {@code -s}, with {@code -a}, {@code --attributes-only},
     * {@code -f}, {@code --remove-destination}): GNU removes a destination before linking over it when
     * the source is not a regular file and links are not followed, or the destination has other names
     * and links are kept — but only when data is to be copied: with {@code --attributes-only} the
     * destination stays and the link fails on it ("File exists").
     */
    static List<Row> linksOverACopy() {
        List<Row> rows = new ArrayList<>();
        String setup = "mkdir -p s t/s\necho new > s/f\nln -s f s/l\nmkfifo s/p\n"
                + "echo old > t/s/f\nln t/s/f t/s/f2\necho 'old l' > t/s/l\nmkfifo t/s/p\n";
        for (String link : List.of("-l", "-s")) {
            for (String more : List.of("", " -a", " --attributes-only", " -a --attributes-only", " --attributes-only -a",
                    " -P --attributes-only", " -a --attributes-only -f", " -a --attributes-only --remove-destination",
                    " --preserve=links --attributes-only")) {
                // (-s with a relative source refuses each link outside the working directory: "can make
                // relative symbolic links only in current directory", after any removal.)
                rows.add(Row.cp("links-over-a-copy", setup, "-r " + link + more, "s t")
                        .rule("copy.c: removing the destination before a link, only when data is copied"));
            }
        }
        return rows;
    }

    @TestFactory
    Stream<DynamicTest> linksOverAnEarlierCopy() {
        return Differential.tests(linksOverACopy());
    }

    @TestFactory
    Stream<DynamicTest> interactive() {
        return Differential.tests(prompts());
    }

    @TestFactory
    Stream<DynamicTest> destinationSymlinks() {
        return Differential.tests(destinationLinks());
    }
}
