package dev.cpx.cli;

import dev.cpx.api.CopyJob;
import java.io.OutputStream;
import java.io.PrintStream;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * The progressbar library (me.tongfei:progressbar) set up for cpx: it redraws the line ten times a
 * second on a daemon thread of its own, measures the terminal through JLine, and hands each
 * drawing to {@link StatusLine}, which draws it through {@link Output}; {@link ProgressLine}
 * renders it. Only loaded once a progress line is shown.
 */
final class ProgressBars {

    /** Redraws per second: at most ten. */
    private static final int INTERVAL_MS = 100;
    /** JLine's switch for its provider that runs {@code stty}, {@code test} and {@code tty} processes. */
    private static final String JLINE_EXEC = "org.jline.terminal.exec";

    private ProgressBars() {
    }

    /** Starts drawing the progress of {@code job}, which started at {@code startNanos}; closing erases it. */
    static AutoCloseable start(CopyJob job, Output output, long startNanos) {
        // JLine measures the terminal with its JNA provider (an ioctl). Its exec provider would also be
        // asked whether each stream is a terminal, spawning `test -t` and `tty` eight times: not wanted.
        if (System.getProperty(JLINE_EXEC) == null) {
            System.setProperty(JLINE_EXEC, "false");
        }
        ProgressBar bar = new ProgressBarBuilder()
                .setUpdateIntervalMillis(INTERVAL_MS)
                .continuousUpdate()
                .clearDisplayOnFinish()
                .setRenderer(new ProgressLine(job, startNanos))
                .setConsumer(new StatusLine(output))
                .build();
        return bar;
    }

    /**
     * The library's console consumer, drawing into {@link Output} instead of a stream of its own.
     * The terminal's width is asked at most once a second: without a native terminal provider JLine
     * asks {@code stty}, a process per call.
     */
    static final class StatusLine extends ConsoleProgressBarConsumer {
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
