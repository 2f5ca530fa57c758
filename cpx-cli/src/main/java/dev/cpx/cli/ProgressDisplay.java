package dev.cpx.cli;

import dev.cpx.api.CopyJob;

/**
 * The progress line while a copy runs, drawn on standard error through {@link Output} (so printed
 * lines go above it) by the progressbar library ({@link ProgressBars}). It appears once the copy
 * has run for half a second, so quick copies show nothing and load none of the library; it is
 * erased at the end. This class touches no class of the library itself.
 */
final class ProgressDisplay implements AutoCloseable {

    /** How long a copy runs before the line appears (system property {@code cpx.progress.delay}, in ms). */
    private static final long DELAY_MS = Long.getLong("cpx.progress.delay", 500);

    private final CopyJob job;
    private final Output output;
    private final Thread starter;
    private final long startNanos = System.nanoTime();
    private AutoCloseable bar;
    private boolean closed;

    private ProgressDisplay(CopyJob job, Output output) {
        this.job = job;
        this.output = output;
        this.starter = new Thread(this::showLater, "cpx-progress");
        starter.setDaemon(true);
    }

    /** Shows the progress of {@code job} (after the delay) until {@link #close()}. */
    static ProgressDisplay start(CopyJob job, Output output) {
        ProgressDisplay display = new ProgressDisplay(job, output);
        display.starter.start();
        return display;
    }

    private void showLater() {
        try {
            Thread.sleep(DELAY_MS);
        } catch (InterruptedException e) {
            return;
        }
        synchronized (this) {
            if (!closed) {
                try {
                    bar = ProgressBars.start(job, output, startNanos);
                } catch (RuntimeException | LinkageError e) {
                    // The copy goes on without the line: say why once, never with a stack trace.
                    output.err(Main.programName() + ": warning: cannot show progress: " + e);
                }
            }
        }
    }

    /** Stops drawing and erases the line. */
    @Override
    public void close() {
        starter.interrupt();
        synchronized (this) {
            closed = true;
            if (bar != null) {
                try {
                    bar.close();
                } catch (Exception e) {
                    // the line is erased below either way
                }
            }
        }
        output.clearStatus();
    }
}
