package dev.cpx.spi;

import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * One unit of work for a {@link CopyEngine}: a byte range of a regular file.
 *
 * <p>Source and target are positioned independently of their channel positions: the engine reads
 * and writes at {@code position}. Each request has channels of its own, so ranges of one file may
 * run in parallel.
 *
 * @param source open for reading
 * @param target open for writing; never shared with a concurrent request
 * @param position offset of the range in both files
 * @param length bytes to copy, or {@link #TO_END} to copy until the source's end of file
 * @param fileSize size of the source when the scheduler looked at it (a hint for buffer sizing)
 * @param sparse how holes are treated inside the range
 * @param progress told about bytes as they are copied; throws when the copy is cancelled
 */
public record CopyRequest(
        FileChannel source,
        FileChannel target,
        long position,
        long length,
        long fileSize,
        SparseMode sparse,
        CopyProgress progress) {

    /** Length meaning "until the end of the source file". */
    public static final long TO_END = Long.MAX_VALUE;

    public CopyRequest {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(sparse, "sparse");
        Objects.requireNonNull(progress, "progress");
        if (position < 0 || length < 0) {
            throw new IllegalArgumentException("negative position or length");
        }
    }

    /** A request for a whole file, from offset 0 to its end. */
    public static CopyRequest wholeFile(FileChannel source, FileChannel target, long fileSize, SparseMode sparse, CopyProgress progress) {
        return new CopyRequest(source, target, 0, TO_END, fileSize, sparse, progress);
    }

    /** Whether the range goes to the end of the source, whatever its size. */
    public boolean toEnd() {
        return length == TO_END;
    }

    /** The offset just past the range, saturating for {@link #TO_END}. */
    public long end() {
        return toEnd() ? Long.MAX_VALUE : position + length;
    }
}
