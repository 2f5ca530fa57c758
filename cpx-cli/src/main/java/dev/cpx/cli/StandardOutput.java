package dev.cpx.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;

/**
 * Standard output that remembers why a write to it failed: a {@link java.io.PrintWriter} keeps
 * only that one did, and GNU cp ends with {@code cp: write error: No space left on device} (exit
 * status 1) where its output could not be written (a full disk, {@code >/dev/full}).
 */
final class StandardOutput extends FileOutputStream {

    private volatile String failure;

    StandardOutput() {
        super(FileDescriptor.out);
    }

    @Override
    public void write(int b) throws IOException {
        try {
            super.write(b);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            super.write(b, off, len);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    private IOException failed(IOException e) {
        if (failure == null) {
            failure = e.getMessage() == null ? e.toString() : e.getMessage();
        }
        return e;
    }

    /** Why the first write that failed did ({@code No space left on device}); null if none failed. */
    String failure() {
        return failure;
    }

    /**
     * Whether the first write that failed did because the reader went away ({@code EPIPE}), for which
     * GNU cp dies by SIGPIPE without a word. The JDK words the reason in the process's locale
     * ({@code Datenübergabe unterbrochen (broken pipe)}), so it is compared with what a pipe of
     * its own says when written with its reader gone (the JVM ignores SIGPIPE).
     */
    boolean brokenPipe() {
        if (failure == null) {
            return false;
        }
        if (failure.equals("Broken pipe")) {
            return true;
        }
        try {
            Pipe pipe = Pipe.open();
            pipe.source().close();
            try (Pipe.SinkChannel sink = pipe.sink()) {
                sink.write(ByteBuffer.allocate(1));
            }
            return false;
        } catch (IOException e) {
            return failure.equals(e.getMessage());
        }
    }
}
