package dev.cpx.cli;

import dev.cpx.api.CopyJob;
import java.io.OutputStream;
import java.io.PrintStream;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * The progress line while a copy runs, drawn on standard error through {@link Output} (so printed
 * lines go above it) by the progressbar library, which redraws it ten times a second on a thread
 * of its own and measures the terminal (through JLine). It appears once the copy has run for
 * half a second, so quick copies show nothing and load none of it; it is erased at the end.
 */
final class ProgressDisplay implements AutoCloseable {

    /** How long a copy runs before the line appears (system property {@code cpx.progress.delay}, in ms). */
    private static final long DELAY_MS = Long.getLong("cpx.progress.delay", 500);
    /** Redraws per second: at most ten. */
    private static final int INTERVAL_MS = 100;

    private final CopyJob job;
    private final Output output;
    private final Thread starter;
    private final long startNanos = System.nanoTime();
    private ProgressBar bar;
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
                bar = new ProgressBarBuilder()
                        .setUpdateIntervalMillis(INTERVAL_MS)
                        .continuousUpdate()
                        .clearDisplayOnFinish()
                        .setRenderer(new ProgressLine(job, startNanos))
                        .setConsumer(new StatusLine(output))
                        .build();
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
                bar.close();
            }
        }
        output.clearStatus();
    }

    /**
     * The library's console consumer, drawing into {@link Output} instead of a stream of its own.
     * The terminal's width is asked at most once a second: without a native terminal provider JLine
     * asks {@code stty}, a process per call.
     */
    private static final class StatusLine extends ConsoleProgressBarConsumer {
        private static final long WIDTH_TTL_NANOS = 1_000_000_000L;

        private final Output output;
        private int width = -1;
        private long widthAt;

        StatusLine(Output output) {
            super(new PrintStream(OutputStream.nullOutputStream()));
            this.output = output;
        }

        @Override
        public int getMaxRenderedLength() {
            long now = System.nanoTime();
            if (width < 0 || now - widthAt > WIDTH_TTL_NANOS) {
                // Two columns stay free for the terminal's echo of ^C, so it never wraps to a line of its own.
                width = Math.max(10, super.getMaxRenderedLength() - Output.ECHO_COLUMNS);
                widthAt = now;
            }
            return width;
        }

        @Override
        public void accept(String rendered) {
            output.status(rendered, width);
        }

        @Override
        public void clear() {
            output.clearStatus();
        }

        @Override
        public void close() {
            output.clearStatus();
        }
    }
}
