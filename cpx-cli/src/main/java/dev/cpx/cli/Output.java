package dev.cpx.cli;

import java.io.PrintWriter;

/**
 * Standard output and standard error of the command, and the status line (the progress display)
 * kept at the bottom of standard error. Every line goes through here, whole and one at a time, and
 * lands above the status line: the status line is erased first and drawn again after, so it never
 * garbles {@code -v} lines or messages. Without a status line, lines print as they would directly.
 */
final class Output {

    /** Columns after the status line that erasing also clears: where the terminal echoes {@code ^C}. */
    static final int ECHO_COLUMNS = 2;

    private final PrintWriter out;
    private final PrintWriter err;
    /** Whether standard output shares the terminal with the status line, so its lines must erase it too. */
    private final boolean outOnTerminal;

    /** The status line as last drawn (null when there is none), and how many columns it covers. */
    private String status;
    private int statusColumns;
    private boolean statusVisible;
    private boolean paused;

    Output(PrintWriter out, PrintWriter err, boolean outOnTerminal) {
        this.out = out;
        this.err = err;
        this.outOnTerminal = outOnTerminal;
    }

    /** One line on standard output. */
    synchronized void out(String line) {
        boolean erase = statusVisible && outOnTerminal;
        if (erase) {
            erase();
        }
        out.println(line);
        if (outOnTerminal) {
            // Line-buffered on a terminal, as GNU cp's stdio is: each line shows as it happens.
            out.flush();
        }
        if (erase) {
            draw();
        }
    }

    /** A whole document on standard output (e.g. JSON), flushed. */
    synchronized void document(String text) {
        boolean erase = statusVisible && outOnTerminal;
        if (erase) {
            erase();
        }
        out.print(text);
        out.flush();
        if (erase) {
            draw();
        }
    }

    /** One line on standard error. */
    synchronized void err(String line) {
        boolean visible = statusVisible;
        if (visible) {
            erase();
        }
        if (outOnTerminal) {
            out.flush();
        }
        err.println(line);
        err.flush();
        if (visible) {
            draw();
        }
    }

    /**
     * Asks a question on standard error (no newline) and keeps the status line away until
     * {@link #answered()}: the answer is typed right after the question.
     */
    synchronized void ask(String question) {
        if (statusVisible) {
            erase();
        }
        paused = true;
        out.flush();
        err.print(question);
        err.flush();
    }

    /** The question of {@link #ask} has been answered: the status line may come back. */
    synchronized void answered() {
        paused = false;
        if (status != null) {
            draw();
        }
    }

    /** Draws (or redraws) the status line: {@code line} must cover {@code columns} terminal columns, no more. */
    synchronized void status(String line, int columns) {
        if (statusVisible && columns < statusColumns) {
            erase();
        }
        status = line;
        statusColumns = Math.max(statusColumns, columns);
        if (!paused) {
            draw();
        }
    }

    /** Erases the status line for good (until the next {@link #status}). */
    synchronized void clearStatus() {
        if (statusVisible) {
            erase();
        }
        status = null;
        statusColumns = 0;
    }

    /** Flushes both streams. */
    synchronized void flush() {
        out.flush();
        err.flush();
    }

    private void draw() {
        err.print('\r');
        err.print(status);
        err.flush();
        statusVisible = true;
    }

    private void erase() {
        err.print('\r');
        err.print(" ".repeat(statusColumns + ECHO_COLUMNS));
        err.print('\r');
        err.flush();
        statusVisible = false;
    }
}
