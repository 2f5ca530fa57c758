package dev.cpx.spi.support;

import java.nio.ByteBuffer;

/**
 * Per-thread direct buffers for copies that pass through user space, so that no copy allocates.
 *
 * <p>Two sizes: 1 MiB, and 64 KiB for files smaller than that and for those whose size {@code stat}
 * gives as 0 (empty, or procfs, devices and FIFOs: an engine's in-kernel call finds nothing to move
 * there and hands over to the read/write loop). Buffers sized more finely by the file (64 KiB up to
 * 2 MiB) were measured against fixed 64 KiB and 1 MiB buffers ({@code BufferSizeBenchmark}, files
 * of 4 KiB to 256 MiB, two runs) and never won: both fixed sizes were as fast or faster at every
 * size. The small one is for memory: a thread that only ever copied empty files held 1 MiB of
 * direct memory for them, and at 16 threads on 812,943 files that was 15 MB of a 73-76 MB peak.
 */
public final class CopyBuffers {

    /** The buffer size for files of at least {@link #SMALL_SIZE} bytes. */
    public static final int SIZE = 1 << 20;

    /** The buffer size for smaller files and for those whose size is 0 (empty, or not told). */
    public static final int SMALL_SIZE = 64 << 10;

    private static final ThreadLocal<ByteBuffer> FIRST = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(SIZE));
    private static final ThreadLocal<ByteBuffer> SECOND = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(SIZE));
    private static final ThreadLocal<ByteBuffer> SMALL_FIRST = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(SMALL_SIZE));
    private static final ThreadLocal<ByteBuffer> SMALL_SECOND = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(SMALL_SIZE));

    private CopyBuffers() {
    }

    /** The buffer size used for a file of {@code fileSize} bytes. */
    public static int sizeFor(long fileSize) {
        return fileSize < SMALL_SIZE ? SMALL_SIZE : SIZE;
    }

    /**
     * This thread's cleared buffer for a file of {@code fileSize} bytes. It stays owned by the
     * thread: do not keep it beyond the current copy or hand it to another thread.
     */
    public static ByteBuffer forFileSize(long fileSize) {
        return (fileSize < SMALL_SIZE ? SMALL_FIRST : FIRST).get().clear();
    }

    /**
     * A second per-thread buffer of the same size as {@link #forFileSize}, for work that reads two
     * files side by side (comparing a copy with its source).
     */
    public static ByteBuffer secondForFileSize(long fileSize) {
        return (fileSize < SMALL_SIZE ? SMALL_SECOND : SECOND).get().clear();
    }

    /** A cleared direct buffer of {@code size} bytes: this thread's own for {@link #SIZE} and {@link #SMALL_SIZE}, else a new one. */
    public static ByteBuffer ofSize(int size) {
        return size == SIZE ? FIRST.get().clear() : size == SMALL_SIZE ? SMALL_FIRST.get().clear() : ByteBuffer.allocateDirect(size);
    }
}
