package dev.cpx.cli;

import dev.cpx.api.CopyListener;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.FileOutcome;
import dev.cpx.api.ShellQuote;
import dev.cpx.spi.support.PathBytes;
import java.io.BufferedReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Prints what happens the way GNU cp does: {@code 'src' -> 'dst'} per entry with {@code -v} (on
 * standard output, or standard error when standard output carries the JSON document), and
 * {@code cpx: message} for each failure on standard error; and keeps every failure for the summary.
 * Workers call it concurrently; each line is written whole, above the progress line.
 */
final class Reporter implements CopyListener {

    private final String program;
    private final Output output;
    private final boolean verbose;
    private final boolean verboseToStderr;
    private final boolean dryRun;
    private final BufferedReader answers;
    private final List<FileOutcome> failures = new ArrayList<>();
    private volatile BooleanSupplier interrupted = () -> false;

    Reporter(String program, Output output, boolean verbose, boolean verboseToStderr, boolean dryRun, BufferedReader answers) {
        this.program = program;
        this.output = output;
        this.verbose = verbose;
        this.verboseToStderr = verboseToStderr;
        this.dryRun = dryRun;
        this.answers = answers;
    }

    /** A pending question is answered "no" once this says the copy was interrupted. */
    void interruptedBy(BooleanSupplier interrupted) {
        this.interrupted = interrupted;
    }

    @Override
    public void entryDone(FileOutcome outcome) {
        if (dryRun && outcome.status() != FileOutcome.Status.FAILED) {
            line(wouldDo(outcome));
            return;
        }
        switch (outcome.status()) {
            case COPIED -> {
                // A directory's line comes once it is made; other entries' came when they started.
                if (verbose && outcome.kind() == EntryKind.DIRECTORY) {
                    line(verboseLine(outcome.source(), outcome.target(), outcome.backup()));
                }
            }
            case FAILED -> {
                // Listed in the summary in the order printed here.
                synchronized (failures) {
                    failures.add(outcome);
                    error(outcome.diagnostic().toString());
                }
            }
            case SKIPPED -> {
            }
        }
    }

    /** Each copy is heard only to print it: with {@code -v} or {@code --dry-run}. */
    @Override
    public boolean hearsEveryCopy() {
        return verbose || dryRun;
    }

    /** GNU cp prints a non-directory's {@code -v} line before making it, so a failure to make it follows. */
    @Override
    public void starting(EntryKind kind, Path source, Path target, Path backup) {
        if (verbose && !dryRun) {
            line(verboseLine(source, target, backup));
        }
    }

    private static String verboseLine(Path source, Path target, Path backup) {
        return ShellQuote.quote(source) + " -> " + ShellQuote.quote(target)
                + (backup == null ? "" : " (backup: " + ShellQuote.quote(backup) + ")");
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

    /** A -v or --dry-run line: on standard output, or standard error when standard output carries JSON. */
    private void line(String text) {
        if (verboseToStderr) {
            output.err(text);
        } else {
            output.out(text);
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

    @Override
    public void warning(Diagnostic warning) {
        error(warning.toString());
    }

    @Override
    public boolean confirm(Diagnostic question) {
        output.ask(program + ": " + question + " ");
        try {
            String answer = answer();
            return answer != null && !answer.isEmpty() && (answer.charAt(0) == 'y' || answer.charAt(0) == 'Y');
        } finally {
            output.answered();
        }
    }

    /** The next line of standard input; null at its end, on an error, or when the copy is interrupted meanwhile. */
    private String answer() {
        // Read on a thread of its own: a blocked read cannot be interrupted, an interrupted copy must not wait for it.
        FutureTask<String> read = new FutureTask<>(answers::readLine);
        Thread reader = new Thread(read, "cpx-answer");
        reader.setDaemon(true);
        reader.start();
        while (true) {
            try {
                return read.get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (interrupted.getAsBoolean()) {
                    return null;
                }
            } catch (ExecutionException e) {
                return null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    /** One line on standard error, prefixed with the program name. */
    void error(String message) {
        output.err(program + ": " + message);
    }

    /** The failures so far, in the order they were reported. */
    List<FileOutcome> failures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }
}
