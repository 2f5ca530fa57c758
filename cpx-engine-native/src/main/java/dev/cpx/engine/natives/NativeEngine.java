package dev.cpx.engine.natives;

import dev.cpx.spi.Availability;
import dev.cpx.spi.CloneResult;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.SparseMode;
import dev.cpx.spi.support.BufferedCopy;
import dev.cpx.spi.support.FileDescriptors;
import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * The Linux engine: copies inside the kernel ({@code copy_file_range}, then {@code sendfile}),
 * keeps holes by copying only the data segments {@code lseek(SEEK_DATA/SEEK_HOLE)} finds, and
 * clones with {@code ioctl(FICLONE)}. It calls the C library through JNA direct mapping, so it is
 * preferred by {@code --engine=auto} wherever JNA loads; the user-space read/write loop is its last
 * fallback, so it copies whatever the kernel offload refuses.
 */
public final class NativeEngine implements CopyEngine {

    /** {@code _IOW(0x94, 9, int)}: make the target share all of the source's extents. */
    private static final long FICLONE = 0x40049409L;

    @Override
    public String id() {
        return "native";
    }

    @Override
    public String description() {
        return "Linux system calls through JNA: copy_file_range, sendfile, SEEK_DATA/SEEK_HOLE holes, FICLONE";
    }

    @Override
    public Availability availability() {
        Availability libc = NativeSupport.libc();
        return libc.available() ? FileDescriptors.availability() : libc;
    }

    @Override
    public int priority() {
        return 100;
    }

    @Override
    public long copy(CopyRequest request) throws IOException {
        int in = descriptor(request.source());
        int out = descriptor(request.target());
        if (in < 0 || out < 0) {
            return BufferedCopy.copy(request);
        }
        if (request.sparse() == SparseMode.NEVER) {
            return KernelCopy.copy(request, in, out, false);
        }
        return SparseCopy.copy(request, in, out);
    }

    @Override
    public CloneResult cloneFile(FileChannel source, FileChannel target) throws IOException {
        int in = descriptor(source);
        int out = descriptor(target);
        if (in < 0 || out < 0) {
            return CloneResult.unsupported(Errno.message(Errno.EOPNOTSUPP));
        }
        if (LibC.ioctl(out, FICLONE, in) == 0) {
            return CloneResult.success();
        }
        int errno = Errno.last();
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
