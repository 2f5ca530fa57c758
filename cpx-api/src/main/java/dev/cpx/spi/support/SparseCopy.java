package dev.cpx.spi.support;

import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.SparseMode;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Copies a range keeping the source's holes ({@link SparseMode#AUTO}), and with
 * {@link SparseMode#ALWAYS} also turning zero blocks into holes.
 *
 * <p>A file with as many bytes allocated as its size has no holes and is copied whole. Otherwise
 * the data segments inside the range are found with {@code lseek(SEEK_DATA)} and
 * {@code lseek(SEEK_HOLE)} and only they are copied: an in-kernel copy would fill the holes. A range
 * that ends in a hole still gets its length. Holes count as copied bytes for progress.
 *
 * <p>{@code lseek} moves the source descriptor's file position; nothing here or in the JDK's
 * positional reads depends on it. The calls are the engine's ({@link KernelCalls}).
 *
 * @since 0.2.0
 */
public final class SparseCopy {

    private static final int SEEK_DATA = 3;
    private static final int SEEK_HOLE = 4;

    private SparseCopy() {
    }

    /** Copies the range of {@code request} (AUTO or ALWAYS); returns the bytes now present from its position. */
    public static long copy(KernelCalls calls, CopyRequest request, int in, int out) throws IOException {
        // A size hint of 0 is an empty file or one whose size stat does not tell (procfs): nothing to walk.
        // Where the scheduler found no holes, there is no need to ask again.
        Allocation allocation = request.fileSize() == 0 || request.holes() == CopyRequest.Holes.NONE ? null : calls.allocation(in);
        if (allocation == null || !allocation.mayHaveHoles() || request.position() >= allocation.size()) {
            return dense(calls, request, in, out);
        }
        long start = request.position();
        long limit = Math.min(request.end(), allocation.size());
        long pos = start;
        while (pos < limit) {
            long data = calls.lseek(in, pos, SEEK_DATA);
            if (data < 0) {
                int errno = calls.errno();
                if (errno == Errno.ENXIO) {
                    break; // only a hole after pos
                }
                if (pos == start && Errno.meansUnsupported(errno)) {
                    return dense(calls, request, in, out);
                }
                throw Errno.copyFailure(errno);
            }
            if (data >= limit) {
                break;
            }
            long hole = calls.lseek(in, data, SEEK_HOLE);
            if (hole < 0) {
                int errno = calls.errno();
                if (errno != Errno.ENXIO) {
                    throw Errno.copyFailure(errno);
                }
                hole = data; // the file shrank under us: stop below
            }
            long segmentEnd = Math.min(hole, limit);
            if (data > pos) {
                request.progress().advance(data - pos);
            }
            if (segmentEnd <= data) {
                return data - start;
            }
            long length = segmentEnd - data;
            CopyRequest segment = request.withRange(data, length).withHoles(CopyRequest.Holes.NONE);
            long copied = dense(calls, segment, in, out);
            if (copied < length) {
                return data + copied - start; // the source ended early
            }
            pos = segmentEnd;
        }
        if (pos < limit) {
            request.progress().advance(limit - pos);
            extend(calls, request, out, limit, limit == allocation.size());
        }
        return limit - start;
    }

    /** Copies the whole range: in the kernel, or through the read/write loop that finds zero blocks for ALWAYS. */
    private static long dense(KernelCalls calls, CopyRequest request, int in, int out) throws IOException {
        if (request.sparse() == SparseMode.ALWAYS) {
            return BufferedCopy.copy(request);
        }
        return KernelCopy.copy(calls, request, in, out, request.mayShareExtents());
    }

    /**
     * Makes the target at least {@code end} bytes long after a trailing hole, never shorter: other
     * ranges of the same file may be written concurrently. A range that ends at the source's end
     * truncates up to it (nothing lies beyond); a range that ends inside the file writes one zero
     * byte at its own last offset instead, because a truncate could race with a write further on.
     */
    private static void extend(KernelCalls calls, CopyRequest request, int out, long end, boolean endOfFile) throws IOException {
        if (request.target().size() >= end) {
            return;
        }
        if (endOfFile) {
            if (calls.ftruncate(out, end) != 0) {
                throw Errno.copyFailure(calls.errno());
            }
        } else {
            BufferedCopy.writeFully(request.target(), ByteBuffer.allocate(1), end - 1);
        }
    }
}
