package dev.cpx.core.plan;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Buffered streams for the plan's lists without the JDK's per-call lock: {@link java.io.DataOutputStream}
 * and {@link java.io.DataInputStream} call {@code write(int)} and {@code read()} once per byte of an
 * {@code int}, and {@link java.io.BufferedOutputStream}'s and {@link java.io.BufferedInputStream}'s
 * are synchronized (some 50 lock operations per entry, written once by the walk and read and
 * written again by the split). A plan's list has one writer or one reader at a time.
 */
final class Buffered {

    private static final int SIZE = 1 << 16;

    private Buffered() {
    }

    /** An unsynchronized {@link java.io.BufferedOutputStream}. */
    static final class Output extends OutputStream {
        private final OutputStream out;
        private final byte[] buf = new byte[SIZE];
        private int count;

        Output(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            if (count == buf.length) {
                flushBuffer();
            }
            buf[count++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (len > buf.length - count) {
                flushBuffer();
                if (len >= buf.length) {
                    out.write(b, off, len);
                    return;
                }
            }
            System.arraycopy(b, off, buf, count, len);
            count += len;
        }

        private void flushBuffer() throws IOException {
            if (count > 0) {
                out.write(buf, 0, count);
                count = 0;
            }
        }

        @Override
        public void flush() throws IOException {
            flushBuffer();
            out.flush();
        }

        @Override
        public void close() throws IOException {
            try (out) {
                flushBuffer();
            }
        }
    }

    /** An unsynchronized {@link java.io.BufferedInputStream} (no mark, no reset). */
    static final class Input extends InputStream {
        private final InputStream in;
        private final byte[] buf = new byte[SIZE];
        private int pos;
        private int count;

        Input(InputStream in) {
            this.in = in;
        }

        private boolean fill() throws IOException {
            int n = in.read(buf, 0, buf.length);
            pos = 0;
            count = Math.max(n, 0);
            return n > 0;
        }

        @Override
        public int read() throws IOException {
            if (pos == count && !fill()) {
                return -1;
            }
            return buf[pos++] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (pos == count) {
                if (len >= buf.length) {
                    return in.read(b, off, len);
                }
                if (!fill()) {
                    return -1;
                }
            }
            int n = Math.min(len, count - pos);
            System.arraycopy(buf, pos, b, off, n);
            pos += n;
            return n;
        }

        @Override
        public int available() throws IOException {
            return (count - pos) + in.available();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
