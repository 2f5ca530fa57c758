package dev.cpx.api;

import java.io.InterruptedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
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
     * A placeholder written {@code {f0}} takes the path quoted only where it needs it
     * ({@link ShellQuote#quoteIfNeeded}: GNU's {@code quotef}, in the few messages that put a name
     * before a colon).
     */
    public String format(Function<Path, String> quote) {
        String text = template;
        for (int i = 0; i < paths.size(); i++) {
            text = text.replace("{" + i + "}", quote.apply(paths.get(i)));
            text = text.replace("{f" + i + "}", ShellQuote.quoteIfNeeded(paths.get(i)));
        }
        return reason.isEmpty() ? text : text + ": " + reason;
    }

    /** The message with GNU cp's quoting. */
    @Override
    public String toString() {
        return format(ShellQuote::quote);
    }

    /** The reason of {@code e} in the words of {@code strerror(3)}, e.g. {@code No space left on device}. */
    public static String reasonOf(Throwable e) {
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "File exists";
        }
        if (e instanceof NotDirectoryException) {
            return "Not a directory";
        }
        if (e instanceof DirectoryNotEmptyException) {
            return "Directory not empty";
        }
        if (e instanceof NotLinkException) {
            return "Invalid argument";
        }
        if (e instanceof FileSystemLoopException) {
            return "Too many levels of symbolic links";
        }
        if (e instanceof InterruptedIOException) {
            return "Interrupted";
        }
        String reason = e instanceof FileSystemException fse ? fse.getReason() : e.getMessage();
        if (reason == null) {
            return e.getClass().getSimpleName();
        }
        // The JDK decorates ELOOP when it follows links for attributes.
        int decorated = reason.indexOf(" or unable to access attributes of symbolic link");
        if (decorated > 0) {
            reason = reason.substring(0, decorated);
        }
        return reason;
    }
}
