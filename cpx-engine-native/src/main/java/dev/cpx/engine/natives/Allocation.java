package dev.cpx.engine.natives;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Size and allocated bytes of an open file, from one {@code statx} call. A file with fewer bytes
 * allocated than its size may have holes, which is the cheap test before walking its data
 * segments. {@code struct statx} has the same layout on every architecture, unlike {@code struct stat}.
 *
 * @param size {@code stx_size}
 * @param allocated {@code stx_blocks * 512}
 */
record Allocation(long size, long allocated) {

    private static final int STATX_SIZE = 0x200;
    private static final int STATX_BLOCKS = 0x400;
    private static final int STATX_BUFFER = 256;
    private static final int STX_MASK = 0;
    private static final int STX_SIZE = 40;
    private static final int STX_BLOCKS = 48;

    /** The allocation of {@code fd}, or null when {@code statx} cannot tell (then treat the file as dense). */
    static Allocation of(int fd) {
        byte[] buffer = new byte[STATX_BUFFER];
        if (LibC.statx(fd, Fcntl.EMPTY_PATH, Fcntl.AT_EMPTY_PATH, STATX_SIZE | STATX_BLOCKS, buffer) != 0) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(buffer).order(ByteOrder.nativeOrder());
        int mask = b.getInt(STX_MASK);
        if ((mask & (STATX_SIZE | STATX_BLOCKS)) != (STATX_SIZE | STATX_BLOCKS)) {
            return null;
        }
        return new Allocation(b.getLong(STX_SIZE), b.getLong(STX_BLOCKS) * 512);
    }

    /** Whether the file may have holes: fewer bytes allocated than its size. */
    boolean mayHaveHoles() {
        return allocated < size;
    }
}
