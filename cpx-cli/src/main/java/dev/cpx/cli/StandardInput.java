package dev.cpx.cli;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Standard input, where {@code -i} reads its answers, remembering whether a read of it failed: GNU
 * cp declines then and ends with {@code cp: error closing file} (exit status 1), with {@code : Bad
 * file descriptor} where standard input was closed ({@code <&-}). A closed standard input is what
 * the launcher says it was ({@code -Dcpx.stdin=closed}): by the time {@code main} runs, the JVM has
 * opened a file of its own on descriptor 0, which must not be read as an answer.
 */
final class StandardInput extends InputStream {

    private final boolean closed;
    private final InputStream in;
    private volatile boolean failed;

    /** Standard input as the launcher found it. */
    StandardInput() {
        this("closed".equals(System.getProperty("cpx.stdin")));
    }

    StandardInput(boolean closed) {
        this.closed = closed;
        this.in = closed ? null : new FileInputStream(FileDescriptor.in);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (closed) {
            failed = true;
            throw new IOException("Bad file descriptor");
        }
        try {
            return in.read(b, off, len);
        } catch (IOException e) {
            failed = true;
            throw e;
        }
    }

    @Override
    public int available() throws IOException {
        return closed ? 0 : in.available();
    }

    /** GNU cp's last line where a read failed ({@code error closing file[: Bad file descriptor]}); null if none did. */
    String failure() {
        return !failed ? null : closed ? "error closing file: Bad file descriptor" : "error closing file";
    }
}
