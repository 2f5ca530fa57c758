package dev.cpx.engine.ffm;

import dev.cpx.spi.support.Allocation;
import dev.cpx.spi.support.Fcntl;
import dev.cpx.spi.support.KernelCalls;
import dev.cpx.spi.support.Statx;

/**
 * The copy's system calls through downcall handles, for the shared copy logic
 * ({@link dev.cpx.spi.support.KernelCopy}, {@link dev.cpx.spi.support.SparseCopy}): offsets and the
 * {@code statx} buffer in the thread's {@link Scratch}, {@code errno} from it.
 */
final class FfmKernelCalls implements KernelCalls {

    static final FfmKernelCalls INSTANCE = new FfmKernelCalls();

    private FfmKernelCalls() {
    }

    @Override
    public long copyFileRange(int in, int out, long offset, long length) {
        Scratch s = Scratch.get();
        s.offsets(offset);
        return LibC.copyFileRange(s, in, s.inOffset, out, s.outOffset, length, 0);
    }

    @Override
    public long sendfile(int out, int in, long offset, long length) {
        Scratch s = Scratch.get();
        s.offsets(offset);
        return LibC.sendfile(s, out, in, s.inOffset, length);
    }

    @Override
    public long lseek(int fd, long offset, int whence) {
        return LibC.lseek(Scratch.get(), fd, offset, whence);
    }

    @Override
    public int ftruncate(int fd, long length) {
        return LibC.ftruncate(Scratch.get(), fd, length);
    }

    @Override
    public int ficlone(int out, int in) {
        return LibC.ioctl(Scratch.get(), out, FICLONE, in);
    }

    @Override
    public Allocation allocation(int fd) {
        Scratch s = Scratch.get();
        s.pathA(EMPTY);
        if (LibC.statx(s, fd, s.pathA, Fcntl.AT_EMPTY_PATH, Statx.SIZE_AND_BLOCKS, s.statx) != 0) {
            return null;
        }
        return Statx.allocation(s.statxView);
    }

    private static final byte[] EMPTY = {};

    @Override
    public int errno() {
        return Scratch.get().errno();
    }
}
