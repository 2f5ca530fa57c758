package dev.cpx.cli;

import dev.cpx.api.CopyJob;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGHUP, SIGINT and SIGTERM while a copy runs. The first one cancels the copy: no new file starts,
 * the files in flight are abandoned under their temporary names, and the command reports and exits
 * with 128 + the signal's number (129, 130, 143). A second one ends the process at once. A signal
 * that was ignored when cpx started (e.g. SIGHUP under {@code nohup}) stays ignored. SIGHUP (the
 * terminal or the ssh session went away) ends the copy as SIGTERM does, where the JVM's own handling
 * would halt it with an overwrite in place unfinished and no word of where the staged copy is.
 */
final class Interrupts implements AutoCloseable {

    /** A signal cpx handles, and its number. */
    enum Kind {
        HUP(1),
        INT(2),
        TERM(15);

        final int number;

        Kind(int number) {
            this.number = number;
        }

        /** The exit status after this signal, as a shell reports a process killed by it. */
        int exitStatus() {
            return 128 + number;
        }
    }

    private final List<Signal> installed = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();
    private volatile Kind first;
    private volatile CopyJob job;

    private Interrupts() {
    }

    /** Handles SIGHUP, SIGINT and SIGTERM from now until {@link #close()}. */
    static Interrupts install() {
        Interrupts interrupts = new Interrupts();
        for (Kind kind : Kind.values()) {
            Signal signal = new Signal(kind.name());
            try {
                SignalHandler old = Signal.handle(signal, s -> interrupts.received(kind));
                interrupts.installed.add(signal);
                interrupts.previous.add(old);
            } catch (IllegalArgumentException e) {
                // The JVM keeps this signal for itself (e.g. -Xrs): leave it be.
            }
        }
        return interrupts;
    }

    /** The copy a first signal cancels; cancelled at once if a signal came before it started. */
    void watch(CopyJob copy) {
        this.job = copy;
        if (first != null) {
            copy.cancel();
        }
    }

    private void received(Kind kind) {
        synchronized (this) {
            if (first != null) {
                endLine();
                Runtime.getRuntime().halt(kind.exitStatus());
            }
            first = kind;
        }
        CopyJob copy = job;
        if (copy != null) {
            copy.cancel();
        }
    }

    /** Ends the line on standard error (the progress line or the echo of ^C), bypassing every lock and buffer. */
    private static void endLine() {
        try {
            new FileOutputStream(FileDescriptor.err).write('\n');
        } catch (IOException e) {
            // exiting anyway
        }
    }

    /** The first signal received, or null. */
    Kind signal() {
        return first;
    }

    boolean interrupted() {
        return first != null;
    }

    /** Gives the signals back to the handlers they had before. */
    @Override
    public void close() {
        for (int i = 0; i < installed.size(); i++) {
            Signal.handle(installed.get(i), previous.get(i));
        }
    }
}
