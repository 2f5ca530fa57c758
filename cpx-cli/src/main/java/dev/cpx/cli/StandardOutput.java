package dev.cpx.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;

/**
 * Standard output that remembers why a write to it failed: a {@link java.io.PrintWriter} keeps
 * only that one did, and GNU cp ends with {@code cp: write error: No space left on device} (exit
 * status 1) where its output could not be written (a full disk, {@code >/dev/full}).
 */
final class StandardOutput extends FileOutputStream {

    /** The system's broken pipe message: the reader went away, for which GNU cp dies by SIGPIPE without a word. */
    static final String BROKEN_PIPE = "Broken pipe";

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
}
