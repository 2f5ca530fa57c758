package dev.cpx.core.copy;

import dev.cpx.spi.support.BufferedCopy;
import dev.cpx.spi.support.CopyBuffers;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/**
 * {@code --verify}: reads a copy and its source back and compares their CRC32C checksums (the
 * JDK's, which uses the CPU's CRC instructions). Reads go through per-thread buffers sized by the
 * file, as copies through user space do.
 */
final class Verifier {

    private Verifier() {
    }

    /** Whether the first {@code length} bytes of both channels have the same checksum, and both have that length. */
    static boolean sameContent(FileChannel source, FileChannel copy, long length) throws IOException {
        if (copy.size() != length) {
            return false;
        }
        return checksum(source, length, CopyBuffers.forFileSize(length)) == checksum(copy, length, CopyBuffers.secondForFileSize(length));
    }

    /** Whether {@code length} bytes at {@code position} are the same in both channels (resuming a partial copy). */
    static boolean sameRange(FileChannel a, FileChannel b, long position, int length) throws IOException {
        ByteBuffer x = CopyBuffers.forFileSize(length);
        ByteBuffer y = CopyBuffers.secondForFileSize(length);
        x.limit(Math.min(x.capacity(), length));
        y.limit(x.limit());
        return readFully(a, x, position) == x.limit() && readFully(b, y, position) == y.limit() && x.flip().equals(y.flip());
    }

    private static long checksum(FileChannel channel, long length, ByteBuffer buffer) throws IOException {
        CRC32C crc = new CRC32C();
        long pos = 0;
        while (pos < length) {
            int n = BufferedCopy.readAt(channel, buffer, pos, length);
            if (n <= 0) {
                return -1;
            }
            crc.update(buffer);
            pos += n;
        }
        return crc.getValue();
    }

    private static int readFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        int total = 0;
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, position + total);
            if (n <= 0) {
                break;
            }
            total += n;
        }
        return total;
    }
}
