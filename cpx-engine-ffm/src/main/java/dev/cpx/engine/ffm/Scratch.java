package dev.cpx.engine.ffm;

import dev.cpx.spi.support.Statx;
import java.nio.ByteBuffer;

/**
 * A thread's native memory for its calls: the segment {@code errno} is captured in (at its start),
 * two offsets ({@code loff_t}), two times ({@code struct timespec}), a {@code struct statx}, two
 * NUL-terminated paths, and, made on first use, the {@code getdents64} buffer and the extended
 * attribute buffer. Java reads and writes it
 * through {@link #buffer}; the calls get addresses. Nothing is allocated per call.
 */
final class Scratch {

    /** {@code PATH_MAX}: the longest path the kernel takes, with its NUL. */
    static final int PATH_MAX = 4096;
    /** Room for the capture state ({@link Linking#STATE_SIZE}: one int on Linux). */
    private static final int STATE = 64;
    private static final int OFFSETS = STATE;
    private static final int TIMES = OFFSETS + 16;
    private static final int STATX = TIMES + 32;
    private static final int HOW = STATX + Statx.SIZE;
    private static final int PATH_A = HOW + dev.cpx.spi.support.Openat2.HOW_SIZE;
    private static final int PATH_B = PATH_A + PATH_MAX;
    private static final int SIZE = PATH_B + PATH_MAX;
    private static final int DIRENTS = 32 << 10;
    /** {@code XATTR_SIZE_MAX} and {@code XATTR_LIST_MAX}: no value or list is longer. */
    static final int XATTR_MAX = 64 << 10;

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private final Linking.Memory memory = Linking.allocate(SIZE);
    /** The segment the downcalls store {@code errno} in: the first argument of every handle in {@link LibC}. */
    final Object state = memory.segment();
    final ByteBuffer buffer = memory.buffer();
    final long inOffset = memory.address() + OFFSETS;
    final long outOffset = inOffset + 8;
    final long statx = memory.address() + STATX;
    final ByteBuffer statxView = buffer.slice(STATX, Statx.SIZE).order(buffer.order());
    final long times = memory.address() + TIMES;
    final long how = memory.address() + HOW;
    final long pathA = memory.address() + PATH_A;
    final long pathB = memory.address() + PATH_B;
    private Linking.Memory dirents;
    private Linking.Memory xattr;

    private Scratch() {
        if (Linking.STATE_SIZE > STATE) {
            throw new IllegalStateException("capture state of " + Linking.STATE_SIZE + " bytes");
        }
    }

    /** This thread's. */
    static Scratch get() {
        return SCRATCH.get();
    }

    /** {@code errno} as the last call through a {@link LibC} handle left it. */
    int errno() {
        return buffer.getInt(Linking.ERRNO_OFFSET);
    }

    /** Sets both offsets ({@code copy_file_range}'s in and out) to {@code offset}. */
    void offsets(long offset) {
        buffer.putLong(OFFSETS, offset);
        buffer.putLong(OFFSETS + 8, offset);
    }

    /** Puts a {@code struct timespec[2]} ({@link dev.cpx.spi.support.Timespecs}) at {@link #times}. */
    void times(long[] timespecs) {
        for (int i = 0; i < 4; i++) {
            buffer.putLong(TIMES + 8 * i, timespecs[i]);
        }
    }

    /** Puts a {@code struct open_how} ({@link dev.cpx.spi.support.Openat2#how}) at {@link #how}. */
    void how(byte[] how) {
        buffer.put(HOW, how);
    }

    /** {@code path} NUL-terminated at {@link #pathA}; false when it is {@code PATH_MAX} bytes or longer (the kernel refuses those). */
    boolean pathA(byte[] path) {
        return put(PATH_A, path);
    }

    /** {@code path} NUL-terminated at {@link #pathB}; as {@link #pathA}. */
    boolean pathB(byte[] path) {
        return put(PATH_B, path);
    }

    private boolean put(int at, byte[] path) {
        if (path.length >= PATH_MAX) {
            return false;
        }
        buffer.put(at, path).put(at + path.length, (byte) 0);
        return true;
    }

    /** The {@code getdents64} buffer. */
    Linking.Memory dirents() {
        if (dirents == null) {
            dirents = Linking.allocate(DIRENTS);
        }
        return dirents;
    }

    /** The extended attribute buffer ({@link #XATTR_MAX} bytes). */
    Linking.Memory xattr() {
        if (xattr == null) {
            xattr = Linking.allocate(XATTR_MAX);
        }
        return xattr;
    }
}
