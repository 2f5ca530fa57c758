package dev.cpx.api;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * A message about one file or operand, kept as data so a front end can quote paths its own way.
 *
 * @param template the message with {@code {0}}, {@code {1}} where paths go, e.g.
 *     {@code "cannot stat {0}"}
 * @param paths the paths for the placeholders
 * @param reason the system's reason (e.g. {@code No such file or directory}), or empty
 */
public record Diagnostic(String template, List<Path> paths, String reason) {

    public Diagnostic {
        paths = List.copyOf(paths);
        reason = reason == null ? "" : reason;
    }

    public static Diagnostic of(String template, Path path, String reason) {
        return new Diagnostic(template, List.of(path), reason);
    }

    public static Diagnostic of(String template, Path first, Path second) {
        return new Diagnostic(template, List.of(first, second), "");
    }

    public static Diagnostic of(String template, Path path) {
        return new Diagnostic(template, List.of(path), "");
    }

    /** The same message with another reason. */
    public Diagnostic withReason(String newReason) {
        return new Diagnostic(template, paths, newReason);
    }

    /**
     * The message with each path quoted by {@code quote}, then {@code ": reason"} if there is one.
     * A placeholder written {@code {r0}} takes the path as it is, unquoted (GNU prints a few
     * messages that way).
     */
    public String format(Function<Path, String> quote) {
        String text = template;
        for (int i = 0; i < paths.size(); i++) {
            text = text.replace("{" + i + "}", quote.apply(paths.get(i)));
            text = text.replace("{r" + i + "}", PathBytes.decode(PathBytes.of(paths.get(i))));
        }
        return reason.isEmpty() ? text : text + ": " + reason;
    }

    /** The message with GNU cp's quoting. */
    @Override
    public String toString() {
        return format(ShellQuote::quote);
    }
}
