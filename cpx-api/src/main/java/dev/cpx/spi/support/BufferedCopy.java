package dev.cpx.spi.support;

import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.SparseMode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The plain read/write loop every engine falls back to: reads the source at explicit offsets into
 * a per-thread buffer and writes the same offsets of the target. With {@link SparseMode#ALWAYS} it
 * leaves a hole where a whole block is zero.
 */
public final class BufferedCopy {

    /** Granularity of zero detection for {@link SparseMode#ALWAYS}: the usual file system block. */
    static final int HOLE_BLOCK = 4096;

    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(HOLE_BLOCK).asReadOnlyBuffer();

    private BufferedCopy() {
    }

    /** Copies the request's range; see {@link CopyEngine#copy}. */
    public static long copy(CopyRequest request) throws IOException {
        return copy(request, request.position());
    }

    /**
     * Copies the part of the request's range that starts at {@code from}, for engines that moved the
     * beginning of the range by other means. Returns bytes copied counted from {@code request.position()}.
     */
    public static long copy(CopyRequest request, long from) throws IOException {
        FileChannel source = request.source();
        FileChannel target = request.target();
        boolean makeHoles = request.sparse() == SparseMode.ALWAYS;
        ByteBuffer buffer = CopyBuffers.forFileSize(request.fileSize());
        long end = request.end();
        long pos = from;
        boolean endsInHole = false;
        while (pos < end) {
            int n = readAt(source, buffer, pos, end);
            if (n <= 0) {
                break;
            }
            if (makeHoles) {
                endsInHole = writeSkippingZeroBlocks(target, buffer, pos);
            } else {
                writeFully(target, buffer, pos);
            }
            pos += n;
            request.progress().advance(n);
        }
        if (endsInHole && target.size() < pos) {
            // The last block was a hole: give the file its length without allocating more than one byte's block.
            writeFully(target, ByteBuffer.allocate(1), pos - 1);
        }
        return pos - request.position();
    }

    /**
     * Reads from {@code channel} at {@code position} into {@code buffer}, cleared first and never past
     * {@code end}, and flips it ready to be drained. Returns the bytes read: 0 or less at the end.
     */
    public static int readAt(FileChannel channel, ByteBuffer buffer, long position, long end) throws IOException {
        buffer.clear();
        if (end - position < buffer.capacity()) {
            buffer.limit((int) (end - position));
        }
        int n = channel.read(buffer, position);
        buffer.flip();
        return n;
    }

    /** Writes all of {@code buffer} at {@code position}, looping over short writes. */
    public static void writeFully(FileChannel target, ByteBuffer buffer, long position) throws IOException {
        long pos = position;
        while (buffer.hasRemaining()) {
            pos += target.write(buffer, pos);
        }
    }

    /** Writes the non-zero blocks of {@code buffer}; returns whether its last block was skipped. */
    private static boolean writeSkippingZeroBlocks(FileChannel target, ByteBuffer buffer, long position) throws IOException {
        int limit = buffer.limit();
        int runStart = -1;
        boolean lastSkipped = false;
        for (int off = 0; off < limit; off += HOLE_BLOCK) {
            int len = Math.min(HOLE_BLOCK, limit - off);
            boolean zero = isZero(buffer, off, len);
            if (!zero && runStart < 0) {
                runStart = off;
            } else if (zero && runStart >= 0) {
                writeFully(target, buffer.duplicate().position(runStart).limit(off), position + runStart);
                runStart = -1;
            }
            lastSkipped = zero;
        }
        if (runStart >= 0) {
            writeFully(target, buffer.duplicate().position(runStart).limit(limit), position + runStart);
        }
        return lastSkipped;
    }

    private static boolean isZero(ByteBuffer buffer, int off, int len) {
        return buffer.slice(off, len).mismatch(ZEROS.slice(0, len)) < 0;
    }
}
