package dev.cpx.cli;

import dev.cpx.api.CopyListener;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.FileOutcome;
import dev.cpx.api.PathBytes;
import dev.cpx.api.ShellQuote;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * Prints what happens the way GNU cp does: {@code 'src' -> 'dst'} per entry with {@code -v} on
 * standard output, and {@code cpx: message} for each failure on standard error. Workers call it
 * concurrently; each line is written whole.
 */
final class Reporter implements CopyListener {

    private final String program;
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean verbose;
    private final boolean dryRun;
    private final BufferedReader answers;

    Reporter(String program, PrintWriter out, PrintWriter err, boolean verbose, boolean dryRun, BufferedReader answers) {
        this.program = program;
        this.out = out;
        this.err = err;
        this.verbose = verbose;
        this.dryRun = dryRun;
        this.answers = answers;
    }

    @Override
    public void entryDone(FileOutcome outcome) {
        if (dryRun && outcome.status() != FileOutcome.Status.FAILED) {
            line(wouldDo(outcome));
            return;
        }
        switch (outcome.status()) {
            case COPIED -> {
                if (verbose) {
                    String line = ShellQuote.quote(outcome.source()) + " -> " + ShellQuote.quote(outcome.target())
                            + (outcome.backup() == null ? "" : " (backup: " + ShellQuote.quote(outcome.backup()) + ")");
                    synchronized (out) {
                        out.println(line);
                    }
                }
            }
            case FAILED -> error(outcome.diagnostic().toString());
            case SKIPPED -> {
            }
        }
    }

    @Override
    public void removed(Path target) {
        if (verbose) {
            line("removed " + ShellQuote.quote(target));
        }
    }

    @Override
    public void parentCreated(Path source, Path target) {
        if (verbose) {
            // GNU cp prints these two unquoted.
            line(PathBytes.decode(PathBytes.of(source)) + " -> " + PathBytes.decode(PathBytes.of(target)));
        }
    }

    /** {@code --dry-run}: one line per entry saying what would happen to it. */
    private static String wouldDo(FileOutcome o) {
        String src = o.source() == null ? "" : ShellQuote.quote(o.source());
        String dst = o.target() == null ? "" : ShellQuote.quote(o.target());
        if (o.status() == FileOutcome.Status.SKIPPED) {
            return "would skip " + src + (o.diagnostic() == null ? "" : " (" + o.diagnostic() + ")");
        }
        String backup = o.backup() == null ? "" : " (backup: " + ShellQuote.quote(o.backup()) + ")";
        return switch (o.kind()) {
            case DIRECTORY -> "would create directory " + dst + " from " + src;
            case SYMLINK -> "would " + (o.replaced() ? "replace" : "create") + " symbolic link " + dst + " from " + src + backup;
            case SPECIAL -> "would " + (o.replaced() ? "replace" : "create") + " special file " + dst + " from " + src + backup;
            default -> o.replaced() ? "would overwrite " + dst + " with " + src + backup : "would copy " + src + " -> " + dst;
        };
    }

    /** {@code --dry-run}: the totals of what would be done. */
    void dryRunTotals(dev.cpx.api.CopySummary s) {
        line(String.format(java.util.Locale.ROOT,
                "dry run: would copy %d files (%d bytes), create %d directories, %d symbolic links, %d special files; "
                        + "skip %d; %d problems", s.files(), s.bytes(), s.directories(), s.symlinks(), s.specials(),
                s.skipped(), s.failed()));
    }

    private void line(String text) {
        synchronized (out) {
            out.println(text);
        }
    }

    @Override
    public void warning(Diagnostic warning) {
        error(warning.toString());
    }

    @Override
    public boolean confirm(Diagnostic question) {
        synchronized (out) {
            out.flush();
        }
        synchronized (err) {
            err.print(program + ": " + question + " ");
            err.flush();
        }
        try {
            String answer = answers.readLine();
            return answer != null && !answer.isEmpty() && (answer.charAt(0) == 'y' || answer.charAt(0) == 'Y');
        } catch (IOException e) {
            return false;
        }
    }

    /** One line on standard error, prefixed with the program name. */
    void error(String message) {
        synchronized (err) {
            err.println(program + ": " + message);
            err.flush();
        }
    }
}
