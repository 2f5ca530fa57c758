package dev.cpx.cli.differential;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Option values as GNU's argmatch takes them: a value may be any unambiguous prefix of a valid
 * one ({@code --backup=nu}, {@code --preserve=mo,ti,l}, {@code --reflink=al}); an ambiguous or
 * invalid one is a usage error listing the valid values ({@code invalid argument 'bogus' for
 * '--sparse'}, then {@code Valid arguments are:} and one {@code  - 'never'} line per value, then
 * the Try line), compared exactly. Long option names by prefix too ({@code --spa=always}), and
 * ambiguous names ({@code --re}). The values are GNU 9.1's lists (cp.c's argmatch tables); every
 * value is generated with its shorter prefixes, and GNU decides which are valid.
 *
 * <p>GNU 9.1 specific: {@code --preserve} and {@code --no-preserve} take a comma-separated list
 * whose items are matched one by one; 9.1 lists valid values with their synonyms grouped on one
 * line ({@code  - 'none', 'off'}).
 */
class OptionValuesTest {

    /** The values each option takes in GNU cp 9.1. */
    static final Map<String, List<String>> VALUES = Map.of(
            "--sparse", List.of("never", "auto", "always"),
            "--reflink", List.of("auto", "always", "never"),
            "--backup", List.of("none", "off", "simple", "never", "existing", "nil", "numbered", "t"),
            "--preserve", List.of("mode", "timestamps", "ownership", "links", "context", "xattr", "all"),
            "--no-preserve", List.of("mode", "timestamps", "ownership", "links", "context", "xattr", "all"));

    /** The values to try: each value, its prefix of one character and its longest, then bad ones. */
    static Set<String> candidates(List<String> values) {
        Set<String> out = new LinkedHashSet<>();
        for (String v : values) {
            out.add(v);
            for (int n : new int[] {1, v.length() - 1}) {
                if (n > 0 && n < v.length()) {
                    out.add(v.substring(0, n));
                }
            }
        }
        out.addAll(List.of("bogus", "", "AUTO"));
        return out;
    }

    static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        String setup = "echo a > a\necho b > b\n";
        for (String option : List.of("--sparse", "--reflink", "--backup", "--preserve", "--no-preserve")) {
            for (String value : candidates(VALUES.get(option))) {
                String target = option.equals("--backup") ? "b" : "c";
                String opt = option + "=" + value;
                if (option.equals("--no-preserve")) {
                    rows.add(Row.of("option-values", setup, "-a", opt, "a", target).rule("argmatch: " + option));
                } else {
                    Row row = Row.of("option-values", setup, opt, "a", target).rule("argmatch: " + option);
                    if (option.equals("--reflink") && "always".startsWith(value) && value.length() >= 2) {
                        // No file system here clones: GNU leaves an empty c, cpx none (README: --reflink).
                        row.gnuLeavesEmptyFile(target);
                    }
                    rows.add(row);
                }
            }
        }
        // Lists.
        for (String list : List.of("mo,ti,l", "link", "mode,bogus", ",mode", "mode,", "mode,,links", "all,nonsense", "x,o")) {
            rows.add(Row.of("option-values", setup, "--preserve=" + list, "a", "c").rule("argmatch: --preserve list"));
        }
        for (String list : List.of("mo", "mode,timestamps", "ti,bogus")) {
            rows.add(Row.of("option-values", setup, "-a", "--no-preserve=" + list, "a", "c").rule("argmatch: --no-preserve list"));
        }
        // Option names by prefix, ambiguous names, missing and unexpected arguments.
        for (String[] args : List.of(
                new String[] {"--spa=always", "a", "c"}, new String[] {"--ref=never", "a", "c"},
                new String[] {"--back=nu", "a", "b"}, new String[] {"--pres=mode", "a", "c"},
                new String[] {"--no-p=mode", "a", "c"}, new String[] {"--s", "a", "c"},
                new String[] {"--re", "a", "c"}, new String[] {"--p", "a", "c"},
                new String[] {"--no-preserve", "a", "c"}, new String[] {"--sparse", "a", "c"},
                new String[] {"--backup", "a", "b"}, new String[] {"--reflink", "a", "c"},
                new String[] {"--preserve", "a", "c"}, new String[] {"-S", "a", "b"},
                new String[] {"--suffix", "a", "b"}, new String[] {"--bogus", "a", "c"},
                new String[] {"-Q", "a", "c"}, new String[] {"--verbose=yes", "a", "c"},
                new String[] {"--backup", "nu", "a", "b"}, new String[] {"-b", "-S", ".bak", "a", "b"},
                new String[] {"--target-directory", "a"}, new String[] {"-t", "nodir", "a"},
                new String[] {"a"}, new String[] {})) {
            Row row = Row.of("option-values", setup, List.of(args)).rule("getopt_long: names by prefix, arguments");
            if (List.of(args).equals(List.of("--reflink", "a", "c"))) {
                // --reflink alone is --reflink=always: no file system here clones (README: --reflink).
                row.gnuLeavesEmptyFile("c");
            }
            rows.add(row);
        }
        // A later -b or --backup without a value keeps the control given before (GNU keeps the last
        // value: --backup=numbered -b makes numbered backups, --backup=bogus -b is refused).
        for (String[] args : List.of(
                new String[] {"--backup=numbered", "-b"}, new String[] {"--backup=numbered", "--backup"},
                new String[] {"-b", "--backup=numbered"}, new String[] {"--backup=t", "-b", "--suffix=.s"},
                new String[] {"--backup=bogus", "-b"}, new String[] {"--backup=bogus", "--backup"},
                new String[] {"--backup=bogus", "--backup=simple"}, new String[] {"--backup=off", "-b"},
                new String[] {"-b", "--backup=none", "-b"})) {
            List<String> command = new ArrayList<>(List.of(args));
            command.addAll(List.of("a", "b"));
            rows.add(Row.of("option-values", setup, command).rule("getopt_long: the last backup control given"));
        }
        return rows;
    }

    @TestFactory
    Stream<DynamicTest> optionValues() {
        return Differential.tests(rows());
    }
}
