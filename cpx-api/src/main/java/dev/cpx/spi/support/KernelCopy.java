package dev.cpx.spi.support;

import dev.cpx.spi.CopyRequest;
import java.io.IOException;

/**
 * Copies one range without holes, inside the kernel where it can: {@code copy_file_range} at
 * explicit offsets, else {@code sendfile}, else the shared read/write loop ({@link BufferedCopy}).
 *
 * <p>A method hands over to the next only when its first call fails with an errno that means
 * "not here" ({@link Errno#meansUnsupported}); any other failure, or a failure after data moved, is
 * the copy's failure. A first call that moves nothing at all (files whose size {@code stat} does not
 * tell, as in procfs) hands over to the read/write loop. Each call moves at most {@link #CHUNK}
 * bytes, so progress is reported, and cancellation noticed, inside large files. The calls are the
 * engine's ({@link KernelCalls}): the logic is written once for every engine that calls the kernel.
 *
 * @since 0.2.0
 */
public final class KernelCopy {

    /** Largest count one {@code copy_file_range} or {@code sendfile} call moves; asking for more breaks some glibc versions. */
    public static final long MAX_PER_CALL = 0x7ffff000L;

    /** Bytes asked of one call. */
    public static final long CHUNK = Math.min(16L << 20, MAX_PER_CALL);

    private static final int SEEK_SET = 0;

    /** Result of a method that copied nothing and says to try the next one. */
    private static final long UNSUPPORTED = -1;

    /** Result of a method whose first call said end of file: read instead, in case the size lied. */
    private static final long READ_INSTEAD = -2;

    /** Set once {@code copy_file_range} answered {@code ENOSYS}: the kernel lacks it, for every file. */
    private static volatile boolean copyFileRangeMissing;

    /**
     * Files smaller than this skip {@code copy_file_range} while {@link #crossDevice} is set; larger
     * ones still ask (one call is nothing beside their data) and clear it when it works.
     */
    static final long CROSS_DEVICE_RETRY_SIZE = 1L << 20;

    /**
     * Set when {@code copy_file_range} last answered {@code EXDEV} (the two files on different file
     * systems, as in most copies from one disk to another): every small file of such a copy would ask
     * again and fail, two calls (a failed one and the {@code lseek} before {@code sendfile}) of the
     * eight a small file took. Cleared by the next large file it copies. Only a way to skip a
     * call that would fail: where it would have worked (a tree that spans file systems), those small
     * files go through {@code sendfile}, which copies the same bytes inside the kernel.
     */
    private static volatile boolean crossDevice;

    private KernelCopy() {
    }

    /**
     * Copies the request's range densely; returns the bytes copied from {@code request.position()}.
     *
     * @param offload whether {@code copy_file_range} may be used; it may share extents or keep holes
     *     on some file systems (btrfs, XFS, NFS), which a dense copy ({@code --sparse=never}) must not
     */
    public static long copy(KernelCalls calls, CopyRequest request, int in, int out, boolean offload) throws IOException {
        long end = UNSUPPORTED;
        if (offload && !copyFileRangeMissing && (!crossDevice || request.fileSize() >= CROSS_DEVICE_RETRY_SIZE)) {
            end = copyFileRange(calls, request, in, out);
        }
        if (end == UNSUPPORTED) {
            end = sendfile(calls, request, in, out);
        }
        if (end < 0) {
            return BufferedCopy.copy(request);
        }
        return end - request.position();
    }

    /**
     * Whether a copy to the end of file can stop without asking once more: it has passed the size the
     * scheduler saw and the call returned less than asked, which the kernel does at the end of file.
     * Saves the second call per file that would only return 0.
     */
    private static boolean reachedEnd(CopyRequest request, long pos, long n, long want) {
        return request.toEnd() && request.fileSize() > 0 && pos >= request.fileSize() && n < want;
    }

    /** Whether {@code copy_file_range} has been found missing in this process. */
    public static boolean copyFileRangeMissing() {
        return copyFileRangeMissing;
    }

    /** Whether small files skip {@code copy_file_range} now, its last answer having been {@code EXDEV}. */
    public static boolean crossDevice() {
        return crossDevice;
    }

    /** Copies with {@code copy_file_range}; returns the end offset reached, or a negative hand-over. */
    private static long copyFileRange(KernelCalls calls, CopyRequest request, int in, int out) throws IOException {
        return loop(calls, request, in, out, true);
    }

    /**
     * Copies with {@code sendfile}, which reads at an explicit offset but writes at the target's file
     * position: that position is set to the range first (each request has a target channel of its own).
     */
    private static long sendfile(KernelCalls calls, CopyRequest request, int in, int out) throws IOException {
        if (calls.lseek(out, request.position(), SEEK_SET) < 0) {
            int errno = calls.errno();
            if (Errno.meansUnsupported(errno) || errno == Errno.ESPIPE) {
                return UNSUPPORTED;
            }
            throw Errno.copyFailure(errno);
        }
        return loop(calls, request, in, out, false);
    }

    /**
     * The loop both calls share: chunks until the range's end (or the end of file), fall back only
     * when the very first call says the method is unsupported, a first call that copies nothing means
     * "read instead". (No lambda per call: where only C1 compiles, as cpx runs, making a capturing
     * lambda is a call into the VM, about 1% of the user time of a copy of many small files.)
     *
     * @param copyFileRange {@code copy_file_range}, where {@code ENOSYS} means it is missing for good;
     *     else {@code sendfile}
     */
    private static long loop(KernelCalls calls, CopyRequest request, int in, int out, boolean copyFileRange) throws IOException {
        long start = request.position();
        long end = request.end();
        long pos = start;
        while (pos < end) {
            long want = Math.min(CHUNK, end - pos);
            long n = copyFileRange ? calls.copyFileRange(in, out, pos, want) : calls.sendfile(out, in, pos, want);
            if (n < 0) {
                int errno = calls.errno();
                if (errno == Errno.EINTR) {
                    continue;
                }
                if (pos == start && Errno.meansUnsupported(errno)) {
                    if (copyFileRange && errno == Errno.ENOSYS) {
                        copyFileRangeMissing = true;
                    } else if (copyFileRange && errno == Errno.EXDEV && !crossDevice) {
                        crossDevice = true;
                    }
                    return UNSUPPORTED;
                }
                throw Errno.copyFailure(errno);
            }
            if (n == 0) {
                return pos == start ? READ_INSTEAD : pos;
            }
            if (copyFileRange && crossDevice) {
                crossDevice = false;
            }
            pos += n;
            request.progress().advance(n);
            if (reachedEnd(request, pos, n, want)) {
                return pos;
            }
        }
        return pos;
    }
}
