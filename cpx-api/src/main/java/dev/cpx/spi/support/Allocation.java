package dev.cpx.spi.support;

/**
 * Size and allocated bytes of an open file ({@code statx}). A file with fewer bytes allocated than its
 * size may have holes, which is the cheap test before walking its data segments.
 *
 * @param size {@code stx_size}
 * @param allocated {@code stx_blocks * 512}
 * @since 0.2.0
 */
public record Allocation(long size, long allocated) {

    /** Whether the file may have holes: fewer bytes allocated than its size. */
    public boolean mayHaveHoles() {
        return allocated < size;
    }
}
