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
    private final BufferedReader answers;

    Reporter(String program, PrintWriter out, PrintWriter err, boolean verbose, BufferedReader answers) {
        this.program = program;
        this.out = out;
        this.err = err;
        this.verbose = verbose;
        this.answers = answers;
    }

    @Override
    public void entryDone(FileOutcome outcome) {
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
