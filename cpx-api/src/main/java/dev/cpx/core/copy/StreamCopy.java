package dev.cpx.core.copy;

import dev.cpx.spi.CopyProgress;
import dev.cpx.spi.support.CopyBuffers;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Copies in sequence, with no offsets: for a source that has none (a FIFO, a device read as data;
 * without {@code -r} or with {@code --copy-contents}) and for a destination that has none (a pipe,
 * a terminal, {@code /dev/stdout}), as GNU cp reads and writes them. Both channels start at their
 * current positions. Engines copy regular files only.
 */
final class StreamCopy {

    /** A failure of the destination side, told apart from the source's; its cause is the system's error. */
    static final class WriteFailure extends IOException {
        WriteFailure(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    private StreamCopy() {
    }

    /**
     * Reads {@code in} to its end and writes everything to {@code out}.
     *
     * @throws WriteFailure when writing failed
     * @throws IOException when reading failed (or the copy was cancelled: {@link java.io.InterruptedIOException})
     */
    static long copy(FileChannel in, FileChannel out, CopyProgress progress) throws IOException {
        // A device read as data can be large: the big buffer (a FIFO gives at most its 64 KiB at a time anyway).
        ByteBuffer buffer = CopyBuffers.forFileSize(CopyBuffers.SIZE);
        long total = 0;
        while (true) {
            buffer.clear();
            int n = in.read(buffer);
            if (n < 0) {
                return total;
            }
            if (n == 0) {
                continue;
            }
            buffer.flip();
            try {
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
            } catch (IOException e) {
                throw new WriteFailure(e);
            }
            total += n;
            progress.advance(n);
        }
    }
}
