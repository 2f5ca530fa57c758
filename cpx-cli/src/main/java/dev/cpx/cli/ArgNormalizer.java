package dev.cpx.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * Reads long options the way GNU {@code getopt_long} does, before picocli sees them: a unique
 * prefix stands for the whole name ({@code --verb} is {@code --verbose}), and options whose value
 * is optional take it only after {@code =}, so {@code cpx --backup src dst} never swallows a path.
 * A bare optional-value option is passed on with {@link #DEFAULT_VALUE}.
 */
final class ArgNormalizer {

    /** The value given to an optional-value option written without {@code =VALUE}. */
    static final String DEFAULT_VALUE = "\u0000";

    private ArgNormalizer() {
    }

    static String[] normalize(CommandSpec spec, String[] args) {
        Set<String> longNames = new TreeSet<>();
        Set<String> optionalValue = new TreeSet<>();
        for (OptionSpec option : spec.options()) {
            for (String name : option.names()) {
                if (name.startsWith("--")) {
                    longNames.add(name);
                    if (option.arity().min() == 0 && option.arity().max() > 0) {
                        optionalValue.add(name);
                    }
                }
            }
        }
        List<String> out = new ArrayList<>(args.length);
        boolean options = true;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!options || !arg.startsWith("--")) {
                out.add(arg);
                continue;
            }
            if (arg.equals("--")) {
                options = false;
                out.add(arg);
                continue;
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            String full = expand(spec, name, longNames);
            if (eq >= 0) {
                out.add(full + arg.substring(eq));
            } else if (optionalValue.contains(full)) {
                out.add(full + "=" + DEFAULT_VALUE);
            } else {
                out.add(full);
            }
        }
        return out.toArray(String[]::new);
    }

    /** Whether {@code name} is one of cpx's own options rather than GNU cp's (GNU's are CpOptions, --help, --version). */
    private static boolean isExtension(CommandSpec spec, String name) {
        if (name.equals("--help") || name.equals("--version")) {
            return false;
        }
        for (CommandSpec mixin : spec.mixins().values()) {
            if (mixin.userObject() instanceof CpOptions && mixin.findOption(name) != null) {
                return false;
            }
        }
        return true;
    }

    /** GNU cp 9.1's long options in the order of its table (cp.c {@code long_opts}), which getopt lists them in. */
    private static final List<String> GNU_ORDER = List.of("--archive", "--attributes-only", "--backup", "--copy-contents",
            "--dereference", "--force", "--interactive", "--link", "--no-clobber", "--no-dereference", "--no-preserve",
            "--no-target-directory", "--one-file-system", "--parents", "--path", "--preserve", "--recursive",
            "--remove-destination", "--sparse", "--reflink", "--strip-trailing-slashes", "--suffix", "--symbolic-link",
            "--target-directory", "--update", "--verbose", "--context", "--help", "--version");

    private static int gnuOrder(String option) {
        int i = GNU_ORDER.indexOf(option);
        return i < 0 ? GNU_ORDER.size() : i;
    }

    private static String expand(CommandSpec spec, String name, Set<String> longNames) {
        if (longNames.contains(name)) {
            return name;
        }
        List<String> candidates = new ArrayList<>();
        for (String n : longNames) {
            if (n.startsWith(name)) {
                candidates.add(n);
            }
        }
        if (candidates.size() == 1) {
            return candidates.get(0);
        }
        if (candidates.size() > 1) {
            // GNU cp's options keep their GNU abbreviations: cpx's own options (--progress, --no-config,
            // --list-engines, ...) never make a prefix that is unique among GNU's ambiguous.
            List<String> gnu = candidates.stream().filter(c -> !isExtension(spec, c)).toList();
            if (!gnu.isEmpty()) {
                candidates = gnu;
            }
            if (candidates.size() == 1) {
                return candidates.get(0);
            }
            // Names of one option (e.g. --recursive only) are not ambiguous.
            OptionSpec first = spec.findOption(candidates.get(0));
            if (candidates.stream().allMatch(c -> spec.findOption(c) == first)) {
                return candidates.get(0);
            }
            StringBuilder sb = new StringBuilder("option '" + name + "' is ambiguous; possibilities:");
            List<String> listed = new ArrayList<>(candidates);
            listed.sort(java.util.Comparator.comparingInt(ArgNormalizer::gnuOrder).thenComparing(c -> c));
            for (String c : listed) {
                sb.append(" '").append(c).append('\'');
            }
            throw new ParameterException(spec.commandLine(), sb.toString());
        }
        return name;
    }
}
