package dev.cpx.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * Reads the command line as GNU cp's {@code getopt_long} does, and hands picocli only the options,
 * each in one canonical form ({@code --name} or {@code --name=VALUE}); the operands go to the
 * command directly. picocli's own reading differs from getopt's where scripts notice: it takes
 * {@code -5} or {@code -1.5} for operands (GNU: "invalid option -- '5'"), refuses a value that
 * looks like an option ({@code -S -v}, {@code -t --x}: GNU takes it as the value), splits
 * {@code -S=} at its {@code =} (GNU: the suffix "="), and ignores {@code POSIXLY_CORRECT}. It also
 * asks of every operand whether it "resembles an option", two exceptions each: ~50 ms of CPU for
 * 5,000 files named on the command line (docs/performance.md).
 *
 * <p>getopt's rules, as glibc has them: options and operands may mix (all operands are kept, in
 * order), unless {@code POSIXLY_CORRECT} is set, where the first operand ends the options;
 * {@code --} ends them; a lone {@code -} is an operand. {@code -abc} is {@code -a -b -c}; a short
 * option with a value takes the rest of its word ({@code -S~}) or else the next word, whatever it
 * is. A long option may be shortened to any unique prefix; its mandatory value follows {@code =}
 * or is the next word; an optional value only follows {@code =} (given as {@link #DEFAULT_VALUE}
 * otherwise). The first error ends the reading: the options before it are still read by picocli
 * first, so that a bad value before it is reported first, as GNU's loop would.
 */
final class Getopt {

    /** The value given to an optional-value option written without {@code =VALUE}. */
    static final String DEFAULT_VALUE = "\u0000";

    /**
     * A command line read: the options in canonical form, in order; the operands, in order; and
     * the usage error that ended the reading, if one did (null otherwise).
     */
    record Read(String[] options, List<String> operands, ParameterException error) {
    }

    private Getopt() {
    }

    /** Reads {@code args} for {@code spec}; {@code posixlyCorrect}: the first operand ends the options. */
    static Read read(CommandSpec spec, String[] args, boolean posixlyCorrect) {
        Set<String> longNames = new TreeSet<>();
        for (OptionSpec option : spec.options()) {
            for (String name : option.names()) {
                if (name.startsWith("--")) {
                    longNames.add(name);
                }
            }
        }
        Map<Character, OptionSpec> shortOptions = spec.posixOptionsMap();
        List<String> options = new ArrayList<>();
        List<String> operands = new ArrayList<>();
        int i = 0;
        try {
            while (i < args.length) {
                String arg = args[i++];
                if (arg.equals("--")) {
                    break;
                }
                if (arg.length() < 2 || arg.charAt(0) != '-') {
                    operands.add(arg);
                    if (posixlyCorrect) {
                        break;
                    }
                    continue;
                }
                OptionSpec option;
                if (arg.startsWith("--")) {
                    int eq = arg.indexOf('=');
                    String name = expand(spec, arg, eq < 0 ? arg : arg.substring(0, eq), longNames);
                    option = spec.findOption(name);
                    if (eq >= 0) {
                        if (option.arity().max() == 0) {
                            throw error(spec, "option '" + name + "' doesn't allow an argument");
                        }
                        options.add(canonical(option, arg.substring(eq + 1)));
                    } else if (option.arity().min() > 0) {
                        if (i == args.length) {
                            throw error(spec, "option '" + name + "' requires an argument");
                        }
                        options.add(canonical(option, args[i++]));
                    } else {
                        options.add(canonical(option, option.arity().max() > 0 ? DEFAULT_VALUE : null));
                    }
                } else {
                    option = null;
                    for (int c = 1; c < arg.length(); c++) {
                        option = shortOptions.get(arg.charAt(c));
                        if (option == null) {
                            throw error(spec, "invalid option -- '" + arg.charAt(c) + "'");
                        }
                        if (option.arity().max() == 0) {
                            options.add(canonical(option, null));
                            if (isHelp(option)) {
                                break;
                            }
                            continue;
                        }
                        String rest = arg.substring(c + 1);
                        if (!rest.isEmpty()) {
                            options.add(canonical(option, rest));
                        } else if (option.arity().min() == 0) {
                            options.add(canonical(option, DEFAULT_VALUE));
                        } else if (i < args.length) {
                            options.add(canonical(option, args[i++]));
                        } else {
                            throw error(spec, "option requires an argument -- '" + arg.charAt(c) + "'");
                        }
                        break;
                    }
                }
                if (isHelp(option)) {
                    // GNU cp answers --help and --version as it meets them: nothing after them counts.
                    return new Read(options.toArray(new String[0]), operands, null);
                }
            }
        } catch (ParameterException e) {
            return new Read(options.toArray(new String[0]), operands, e);
        }
        while (i < args.length) {
            operands.add(args[i++]);
        }
        return new Read(options.toArray(new String[0]), operands, null);
    }

    private static boolean isHelp(OptionSpec option) {
        return option.usageHelp() || option.versionHelp();
    }

    /** The option as picocli is given it: its longest name, with its value after {@code =}. */
    private static String canonical(OptionSpec option, String value) {
        return value == null ? option.longestName() : option.longestName() + "=" + value;
    }

    private static ParameterException error(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** The full name of the long option {@code name} (written as {@code arg}): itself, or the one it is a unique prefix of. */
    private static String expand(CommandSpec spec, String arg, String name, Set<String> longNames) {
        if (longNames.contains(name)) {
            return name;
        }
        List<String> candidates = new ArrayList<>();
        for (String n : longNames) {
            if (n.startsWith(name)) {
                candidates.add(n);
            }
        }
        if (candidates.isEmpty()) {
            throw error(spec, "unrecognized option '" + arg + "'");
        }
        if (candidates.size() > 1) {
            // GNU cp's options keep their GNU abbreviations: cpx's own options (--progress, --no-config,
            // --list-engines, ...) never make a prefix that is unique among GNU's ambiguous.
            List<String> gnu = candidates.stream().filter(c -> !isExtension(c)).toList();
            if (!gnu.isEmpty()) {
                candidates = gnu;
            }
        }
        // Names of one option (e.g. --recursive only, or --parents and --path) are not ambiguous.
        OptionSpec first = spec.findOption(candidates.get(0));
        if (candidates.stream().allMatch(c -> same(first, spec.findOption(c)))) {
            return candidates.get(0);
        }
        // getopt lists the first match in its table and each one that is not the same option as that one.
        StringBuilder sb = new StringBuilder("option '" + arg + "' is ambiguous; possibilities:");
        List<String> listed = new ArrayList<>(candidates);
        listed.sort(Comparator.comparingInt(Getopt::gnuOrder).thenComparing(c -> c));
        OptionSpec found = spec.findOption(listed.get(0));
        for (String c : listed) {
            if (c.equals(listed.get(0)) || !same(found, spec.findOption(c))) {
                sb.append(" '").append(c).append('\'');
            }
        }
        throw error(spec, sb.toString());
    }

    /** Whether the two options set the same thing (as getopt, which calls names with one flag and value one option). */
    private static boolean same(OptionSpec a, OptionSpec b) {
        return a == b || a.setter() instanceof Specs.Binding x && b.setter() instanceof Specs.Binding y && x.sameAs(y);
    }

    /** Whether {@code name} is one of cpx's own long options rather than GNU cp's ({@link #GNU_ORDER}). */
    private static boolean isExtension(String name) {
        return !GNU_ORDER.contains(name);
    }

    /** GNU cp 9.1's long options in the order of its table (cp.c {@code long_opts}), which getopt lists them in; the others are cpx's. */
    private static final List<String> GNU_ORDER = List.of("--archive", "--attributes-only", "--backup", "--copy-contents",
            "--dereference", "--force", "--interactive", "--link", "--no-clobber", "--no-dereference", "--no-preserve",
            "--no-target-directory", "--one-file-system", "--parents", "--path", "--preserve", "--recursive",
            "--remove-destination", "--sparse", "--reflink", "--strip-trailing-slashes", "--suffix", "--symbolic-link",
            "--target-directory", "--update", "--verbose", "--context", "--help", "--version");

    private static int gnuOrder(String option) {
        int i = GNU_ORDER.indexOf(option);
        return i < 0 ? GNU_ORDER.size() : i;
    }
}
