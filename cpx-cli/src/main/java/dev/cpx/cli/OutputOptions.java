package dev.cpx.cli;

import dev.cpx.api.ShellQuote;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * What cpx shows besides GNU cp's own output: the progress line, the summary, the JSON document;
 * and whether the defaults file is read. GNU cp prints nothing on success, so progress and summary
 * appear by default only when standard error is a terminal: scripts that capture or discard it see
 * what GNU cp would print.
 */
public final class OutputOptions {

    /** When something is shown. */
    enum When {
        /** When standard error is a terminal. */
        AUTO,
        ALWAYS,
        NEVER
    }

    /** Reads {@code auto}, {@code always} (also the option alone), {@code never}. */
    static final class WhenConverter implements ITypeConverter<When> {
        @Override
        public When convert(String value) {
            return switch (value) {
                case ArgNormalizer.DEFAULT_VALUE, "always" -> When.ALWAYS;
                case "auto" -> When.AUTO;
                case "never" -> When.NEVER;
                default -> throw new TypeConversionException(ShellQuote.quote(value) + " is not one of auto, always, never");
            };
        }
    }

    @Option(names = "--progress", arity = "0..1", paramLabel = "WHEN", converter = WhenConverter.class,
            description = "Show progress on standard error: auto (when it is a terminal; the default), always "
                    + "(--progress alone), never.")
    When progress = When.AUTO;

    @Option(names = "--no-progress", description = "Same as --progress=never.")
    boolean noProgress;

    @Option(names = "--summary", arity = "0..1", paramLabel = "WHEN", converter = WhenConverter.class,
            description = "Print a summary on standard error at the end: auto (when it is a terminal and "
                    + "without --json; the default), always (--summary alone), never.")
    When summary = When.AUTO;

    @Option(names = "--no-summary", description = "Same as --summary=never.")
    boolean noSummary;

    @Option(names = {"-q", "--quiet"}, description = "Show no progress and no summary; errors are still reported.")
    boolean quiet;

    @Option(names = "--json", description = "Write the summary and every failure as one JSON document on standard "
            + "output (-v lines go to standard error).")
    boolean json;

    @Option(names = "--no-config", description = "Ignore the defaults file (~/.config/cpx/cpx.properties).")
    boolean noConfig;

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
