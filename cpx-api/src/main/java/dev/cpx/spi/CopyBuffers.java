package dev.cpx.spi;

import java.nio.ByteBuffer;

/**
 * Per-thread direct buffers for copies that pass through user space, sized by the file being
 * copied: small files get a small buffer, large files a large one, and no copy allocates.
 */
public final class CopyBuffers {

    /** Buffer sizes, smallest first, and the file size from which each is used. */
    private static final int[] SIZES = {64 << 10, 256 << 10, 1 << 20, 2 << 20};
    private static final long[] FROM_FILE_SIZE = {0, 4L << 20, 32L << 20, 128L << 20};

    private static final ThreadLocal<ByteBuffer[]> BUFFERS = ThreadLocal.withInitial(() -> new ByteBuffer[SIZES.length]);
    private static final ThreadLocal<ByteBuffer[]> SECOND = ThreadLocal.withInitial(() -> new ByteBuffer[SIZES.length]);

    private CopyBuffers() {
    }

    /** The buffer size used for a file of {@code fileSize} bytes. */
    public static int sizeFor(long fileSize) {
        int i = SIZES.length - 1;
        while (i > 0 && fileSize < FROM_FILE_SIZE[i]) {
            i--;
        }
        return SIZES[i];
    }

    /**
     * This thread's cleared buffer for a file of {@code fileSize} bytes. It stays owned by the
     * thread: do not keep it beyond the current copy or hand it to another thread.
     */
    public static ByteBuffer forFileSize(long fileSize) {
        return ofSize(sizeFor(fileSize));
    }

    /**
     * A second per-thread buffer of the same size as {@link #forFileSize}, for work that reads two
     * files side by side (comparing a copy with its source).
     */
    public static ByteBuffer secondForFileSize(long fileSize) {
        return cached(SECOND.get(), sizeFor(fileSize));
    }

    /** This thread's cleared direct buffer of exactly {@code size} bytes (one of the size classes, or any other size, uncached). */
    public static ByteBuffer ofSize(int size) {
        return cached(BUFFERS.get(), size);
    }

    private static ByteBuffer cached(ByteBuffer[] cache, int size) {
        for (int i = 0; i < SIZES.length; i++) {
            if (SIZES[i] == size) {
                ByteBuffer b = cache[i];
                if (b == null) {
                    b = ByteBuffer.allocateDirect(size);
                    cache[i] = b;
                }
                return b.clear();
            }
        }
        return ByteBuffer.allocateDirect(size);
    }
}
