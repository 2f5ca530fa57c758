package dev.cpx.engine.natives;

import dev.cpx.spi.support.Allocation;
import dev.cpx.spi.support.Fcntl;
import dev.cpx.spi.support.KernelCalls;
import dev.cpx.spi.support.Statx;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The copy's system calls through JNA direct mapping, for the shared copy logic
 * ({@link dev.cpx.spi.support.KernelCopy}, {@link dev.cpx.spi.support.SparseCopy}). Offsets and the
 * {@code statx} buffer are per-thread direct memory passed by address: nothing copied or allocated
 * per call.
 */
final class NativeKernelCalls implements KernelCalls {

    static final NativeKernelCalls INSTANCE = new NativeKernelCalls();

    /** One {@code loff_t} per side, and a {@code struct statx}, per thread. */
    private static final class Scratch {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(16 + Statx.SIZE).order(ByteOrder.nativeOrder());
        final long in = LibCBuffers.address(buffer);
        final long out = in + 8;
        final long statx = in + 16;
        final ByteBuffer statxView = buffer.slice(16, Statx.SIZE).order(ByteOrder.nativeOrder());
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /** {@code ""}, for {@code AT_EMPTY_PATH}: shared, never collected. */
    private static final ByteBuffer EMPTY = ByteBuffer.allocateDirect(1);
    private static final long EMPTY_ADDRESS = LibCBuffers.address(EMPTY);

    private NativeKernelCalls() {
    }

    @Override
    public long copyFileRange(int in, int out, long offset, long length) {
        Scratch s = SCRATCH.get();
        s.buffer.putLong(0, offset);
        s.buffer.putLong(8, offset);
        return LibCBuffers.copy_file_range(in, s.in, out, s.out, length, 0);
    }

    @Override
    public long sendfile(int out, int in, long offset, long length) {
        Scratch s = SCRATCH.get();
        s.buffer.putLong(0, offset);
        return LibCBuffers.sendfile(out, in, s.in, length);
    }

    @Override
    public long lseek(int fd, long offset, int whence) {
        return LibC.lseek(fd, offset, whence);
    }

    @Override
    public int ftruncate(int fd, long length) {
        return LibC.ftruncate(fd, length);
    }

    @Override
    public int ficlone(int out, int in) {
        return LibC.ioctl(out, FICLONE, in);
    }

    @Override
    public Allocation allocation(int fd) {
        Scratch s = SCRATCH.get();
        if (LibCBuffers.statx(fd, EMPTY_ADDRESS, Fcntl.AT_EMPTY_PATH, Statx.SIZE_AND_BLOCKS, s.statx) != 0) {
            return null;
        }
        return Statx.allocation(s.statxView);
    }

    @Override
    public int errno() {
        return LibC.errno();
    }
}
