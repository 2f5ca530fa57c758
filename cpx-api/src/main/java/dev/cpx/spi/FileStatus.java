package dev.cpx.spi;

/**
 * What {@code stat(2)} says of one file, read by {@link Descriptors#status(int)} or
 * {@link Descriptors#status(int, byte[])}: the fields the scheduler uses, times as seconds and
 * nanoseconds. {@code dev} and {@code rdev} are encoded as glibc's {@code makedev} encodes them (the
 * JDK's {@code unix:dev} and {@code unix:rdev} values).
 *
 * @param mode file type and permission bits ({@code st_mode})
 * @param size {@code st_size}
 * @param blocks 512-byte blocks allocated ({@code st_blocks})
 * @since 0.2.0
 */
public record FileStatus(int mode, long size, long blocks, long dev, long ino, long nlink, int uid, int gid, long rdev,
        long atimeSeconds, int atimeNanos, long mtimeSeconds, int mtimeNanos, long ctimeSeconds, int ctimeNanos) {

    /** Bytes allocated to the file: fewer than its size means it has holes. */
    public long allocatedBytes() {
        return blocks * 512;
    }
}
