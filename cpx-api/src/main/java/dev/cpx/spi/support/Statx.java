package dev.cpx.spi.support;

import dev.cpx.spi.FileStatus;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * {@code struct statx} as the kernel fills it, read from a buffer in native byte order: its layout is
 * the same on every architecture, unlike {@code struct stat}'s. Written once for every engine that
 * calls {@code statx}.
 *
 * @since 0.2.0
 */
public final class Statx {

    /** Bytes of {@code struct statx} (with room to spare). */
    public static final int SIZE = 256;
    /** {@code STATX_BASIC_STATS}: every field {@code stat} has. */
    public static final int BASIC_STATS = 0x7ff;
    /** {@code STATX_SIZE | STATX_BLOCKS}: enough to tell holes. */
    public static final int SIZE_AND_BLOCKS = 0x200 | 0x400;
    /** {@code AT_STATX_SYNC_AS_STAT}: what {@code stat} does. */
    public static final int SYNC_AS_STAT = 0;

    private Statx() {
    }

    /** The file's status from a buffer {@code statx(..., BASIC_STATS, ...)} filled. */
    public static FileStatus status(ByteBuffer b) throws IOException {
        int mask = b.getInt(0);
        if ((mask & BASIC_STATS) != BASIC_STATS) {
            throw new IOException(Errno.message(Errno.EOPNOTSUPP) + " (statx mask " + Integer.toHexString(mask) + ")");
        }
        long nlink = b.getInt(16) & 0xffffffffL;
        int uid = b.getInt(20);
        int gid = b.getInt(24);
        int mode = b.getShort(28) & 0xffff;
        long ino = b.getLong(32);
        long size = b.getLong(40);
        long blocks = b.getLong(48);
        long rdev = makedev(b.getInt(128), b.getInt(132));
        long dev = makedev(b.getInt(136), b.getInt(140));
        return new FileStatus(mode, size, blocks, dev, ino, nlink, uid, gid, rdev,
                b.getLong(64), b.getInt(72), b.getLong(112), b.getInt(120), b.getLong(96), b.getInt(104));
    }

    /** Size and allocation from a buffer {@code statx(..., SIZE_AND_BLOCKS, ...)} filled; null when the kernel did not say. */
    public static Allocation allocation(ByteBuffer b) {
        if ((b.getInt(0) & SIZE_AND_BLOCKS) != SIZE_AND_BLOCKS) {
            return null;
        }
        return new Allocation(b.getLong(40), b.getLong(48) * 512);
    }

    /** glibc's {@code makedev}: the {@code dev_t} that {@code stat} returns, and the JDK's {@code unix:dev}. */
    public static long makedev(int major, int minor) {
        long ma = major & 0xffffffffL;
        long mi = minor & 0xffffffffL;
        return ((ma & 0x00000fffL) << 8) | ((ma & 0xfffff000L) << 32) | (mi & 0x000000ffL) | ((mi & 0xffffff00L) << 12);
    }
}
