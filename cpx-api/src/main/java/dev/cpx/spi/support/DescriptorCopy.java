package dev.cpx.spi.support;

import dev.cpx.spi.CloneResult;
import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.SparseMode;
import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * What an engine that calls the kernel does with a request, whichever way it calls it
 * ({@link KernelCalls}): take the channels' descriptors, copy densely for {@link SparseMode#NEVER}
 * ({@link KernelCopy}, without {@code copy_file_range}, which may keep holes), else keeping holes
 * ({@link SparseCopy}; its data through {@code copy_file_range} only where the request may share
 * extents, {@link dev.cpx.spi.CopyRequest#mayShareExtents()}); channels without a descriptor go through
 * the read/write loop. And
 * {@code ioctl(FICLONE)}, whose "not here" answers are a value.
 *
 * @since 0.2.0
 */
public final class DescriptorCopy {

    private DescriptorCopy() {
    }

    /** {@link dev.cpx.spi.CopyEngine#copy} through {@code calls}. */
    public static long copy(KernelCalls calls, CopyRequest request) throws IOException {
        int in = descriptor(request.source());
        int out = descriptor(request.target());
        if (in < 0 || out < 0) {
            return BufferedCopy.copy(request);
        }
        if (request.sparse() == SparseMode.NEVER) {
            return KernelCopy.copy(calls, request, in, out, false);
        }
        return SparseCopy.copy(calls, request, in, out);
    }

    /** {@link dev.cpx.spi.CopyEngine#cloneFile} through {@code calls}. */
    public static CloneResult cloneFile(KernelCalls calls, FileChannel source, FileChannel target) throws IOException {
        int in = descriptor(source);
        int out = descriptor(target);
        if (in < 0 || out < 0) {
            return CloneResult.unsupported(Errno.message(Errno.EOPNOTSUPP));
        }
        if (calls.ficlone(out, in) == 0) {
            return CloneResult.success();
        }
        int errno = calls.errno();
        if (Errno.meansUnsupported(errno) || errno == Errno.ENOTTY || errno == Errno.EISDIR) {
            return CloneResult.unsupported(Errno.message(errno));
        }
        throw Errno.copyFailure(errno);
    }

    /** The channel's descriptor, or -1 for a channel that has none (not the default file system's). */
    private static int descriptor(FileChannel channel) {
        try {
            return FileDescriptors.of(channel);
        } catch (IllegalStateException e) {
            return -1;
        }
    }
}
