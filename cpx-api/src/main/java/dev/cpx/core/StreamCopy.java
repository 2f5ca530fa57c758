package dev.cpx.core;

import dev.cpx.spi.CopyProgress;
import dev.cpx.spi.support.BufferedCopy;
import dev.cpx.spi.support.CopyBuffers;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Copies a special file read as data (a FIFO, a device; without {@code -r} or with
 * {@code --copy-contents}): it has no offsets to read at, so it is read in sequence until its end,
 * as GNU cp reads it. Engines copy regular files only.
 */
final class StreamCopy {

    private StreamCopy() {
    }

    static long copy(FileChannel in, FileChannel out, CopyProgress progress) throws IOException {
        ByteBuffer buffer = CopyBuffers.forFileSize(0);
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
            BufferedCopy.writeFully(out, buffer, total);
            total += n;
            progress.advance(n);
        }
    }
}
