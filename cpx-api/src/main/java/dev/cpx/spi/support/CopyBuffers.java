package dev.cpx.spi.support;

import java.nio.ByteBuffer;

/**
 * Per-thread direct buffers for copies that pass through user space, so that no copy allocates.
 *
 * <p>One size for every file: 1 MiB. Buffers sized by the file (64 KiB for small files up to
 * 2 MiB for files of hundreds of MiB) were measured against fixed 64 KiB and 1 MiB buffers
 * ({@code BufferSizeBenchmark}, files of 4 KiB to 256 MiB, two runs) and never won: both fixed sizes
 * were as fast or faster at every size, and the 2 MiB class was the slowest for 256 MiB files.
 */
public final class CopyBuffers {

    /** The buffer size, whatever the file's. */
    public static final int SIZE = 1 << 20;

    private static final ThreadLocal<ByteBuffer> FIRST = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(SIZE));
    private static final ThreadLocal<ByteBuffer> SECOND = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(SIZE));

    private CopyBuffers() {
    }

    /** The buffer size used for a file of {@code fileSize} bytes: {@link #SIZE}. */
    public static int sizeFor(long fileSize) {
        return SIZE;
    }

    /**
     * This thread's cleared buffer for a file of {@code fileSize} bytes. It stays owned by the
     * thread: do not keep it beyond the current copy or hand it to another thread.
     */
    public static ByteBuffer forFileSize(long fileSize) {
        return FIRST.get().clear();
    }

    /**
     * A second per-thread buffer of the same size as {@link #forFileSize}, for work that reads two
     * files side by side (comparing a copy with its source).
     */
    public static ByteBuffer secondForFileSize(long fileSize) {
        return SECOND.get().clear();
    }

    /** A cleared direct buffer of {@code size} bytes: this thread's own for {@link #SIZE}, else a new one. */
    public static ByteBuffer ofSize(int size) {
        return size == SIZE ? FIRST.get().clear() : ByteBuffer.allocateDirect(size);
    }
}
