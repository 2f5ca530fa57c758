package dev.cpx.cli;

import picocli.CommandLine.Model.CommandSpec;

/**
 * What cpx shows besides GNU cp's own output: the progress line, the summary, the JSON document;
 * and whether the defaults file is read. GNU cp prints nothing on success, so progress and summary
 * appear by default only when standard error is a terminal: scripts that capture or discard it see
 * what GNU cp would print.
 */
public final class OutputOptions implements Specs.Target {

    /** When something is shown. */
    enum When {
        /** When standard error is a terminal. */
        AUTO,
        ALWAYS,
        NEVER
    }

    /** The words of {@code --progress=} and {@code --summary=}, by prefix as GNU's own values. */
    private static final String[] WHEN_WORDS = {"auto", "always", "never"};
    private static final When[] WHEN_MEANINGS = {When.AUTO, When.ALWAYS, When.NEVER};

    /** The command these options belong to (for usage errors); set by {@link CpxCommand}. */
    CommandSpec spec;

    When progress = When.AUTO;
    boolean noProgress;
    When summary = When.AUTO;
    boolean noSummary;
    boolean quiet;
    boolean json;
    boolean noConfig;

    /** Adds these options to the command's model {@code s}, in code (see {@link Specs}). */
    void addTo(CommandSpec s) {
        s.addOption(Specs.optional(this, "WHEN", "Show progress on standard error: auto (when it is a terminal; the default), "
                + "always (--progress alone), never.", "--progress"));
        s.addOption(Specs.flag(this, "Same as --progress=never.", "--no-progress"));
        s.addOption(Specs.optional(this, "WHEN", "Print a summary on standard error at the end: auto (when it is a terminal "
                + "and without --json; the default), always (--summary alone), never.", "--summary"));
        s.addOption(Specs.flag(this, "Same as --summary=never.", "--no-summary"));
        s.addOption(Specs.flag(this, "Show no progress and no summary; errors are still reported.", "-q", "--quiet"));
        s.addOption(Specs.flag(this, "Write the summary and every failure as one JSON document on standard "
                + "output (-v lines go to standard error).", "--json"));
        s.addOption(Specs.flag(this, "Ignore the defaults file (~/.config/cpx/cpx.properties).", "--no-config"));
    }

    @Override
    public void set(String key, Object value) {
        switch (key) {
            case "--progress" -> progress = when("--progress", (String) value);
            case "--no-progress" -> noProgress = true;
            case "--summary" -> summary = when("--summary", (String) value);
            case "--no-summary" -> noSummary = true;
            case "--quiet" -> quiet = true;
            case "--json" -> json = true;
            case "--no-config" -> noConfig = true;
            default -> throw new IllegalStateException("no such option: " + key);
        }
    }

    /** {@code auto}, {@code always} (also the option alone), {@code never}, or a prefix of one. */
    private When when(String option, String value) {
        if (Getopt.DEFAULT_VALUE.equals(value)) {
            return When.ALWAYS;
        }
        return new ArgMatch<>(option, WHEN_WORDS, WHEN_MEANINGS).match(spec.commandLine(), value);
    }

    /** Whether standard error is a terminal, as the launcher saw it ({@code [ -t 2 ]}). */
    static boolean stderrIsTerminal() {
        return Boolean.getBoolean("cpx.stderr.tty");
    }

    /** Whether standard output is a terminal, as the launcher saw it ({@code [ -t 1 ]}). */
    static boolean stdoutIsTerminal() {
        return Boolean.getBoolean("cpx.stdout.tty");
    }

    /** Whether to draw the progress line: {@code --no-progress} and {@code -q} win over {@code --progress}. */
    boolean showProgress() {
        if (quiet || noProgress) {
            return false;
        }
        return progress == When.ALWAYS || (progress == When.AUTO && stderrIsTerminal());
    }

    /** Whether to print the summary: {@code --no-summary} and {@code -q} win over {@code --summary}. */
    boolean showSummary() {
        if (quiet || noSummary) {
            return false;
        }
        return summary == When.ALWAYS || (summary == When.AUTO && stderrIsTerminal() && !json);
    }
}
