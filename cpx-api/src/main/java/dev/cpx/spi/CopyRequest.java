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
 * @param holes what the scheduler knows of the source's holes, so an engine need not ask again
 * @param mayShareExtents whether the target may share the source's extents: {@code copy_file_range} and
 *     JDK 21's {@code transferTo} make a reflink where the file system can (XFS, btrfs). False for
 *     {@code --reflink=never}: the engine writes the data itself ({@code sendfile}, read and write), as
 *     GNU cp does. ({@code @since 0.2.0})
 */
public record CopyRequest(
        FileChannel source,
        FileChannel target,
        long position,
        long length,
        long fileSize,
        SparseMode sparse,
        CopyProgress progress,
        Holes holes,
        boolean mayShareExtents) {

    /** Length meaning "until the end of the source file". */
    public static final long TO_END = Long.MAX_VALUE;

    /** Whether the source has holes, as far as the scheduler looked ({@code st_blocks} against the size). */
    public enum Holes {
        /** Not looked at: the engine finds out itself if it cares. */
        UNKNOWN,
        /** No holes worth keeping (fully allocated, or too small to bother). */
        NONE,
        /** Fewer bytes allocated than the size: there are holes. */
        SOME
    }

    /** A request that may share extents ({@code mayShareExtents}: the scheduler's default). */
    public CopyRequest(FileChannel source, FileChannel target, long position, long length, long fileSize,
            SparseMode sparse, CopyProgress progress, Holes holes) {
        this(source, target, position, length, fileSize, sparse, progress, holes, true);
    }

    /** A request whose holes are {@link Holes#UNKNOWN}. */
    public CopyRequest(FileChannel source, FileChannel target, long position, long length, long fileSize,
            SparseMode sparse, CopyProgress progress) {
        this(source, target, position, length, fileSize, sparse, progress, Holes.UNKNOWN);
    }

    public CopyRequest {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(sparse, "sparse");
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(holes, "holes");
        if (position < 0 || length < 0) {
            throw new IllegalArgumentException("negative position or length");
        }
    }

    /** A request for a whole file, from offset 0 to its end. */
    public static CopyRequest wholeFile(FileChannel source, FileChannel target, long fileSize, SparseMode sparse, CopyProgress progress) {
        return new CopyRequest(source, target, 0, TO_END, fileSize, sparse, progress);
    }

    /** A request for a whole file whose holes the scheduler has looked at. */
    public static CopyRequest wholeFile(FileChannel source, FileChannel target, long fileSize, SparseMode sparse,
            CopyProgress progress, Holes holes) {
        return new CopyRequest(source, target, 0, TO_END, fileSize, sparse, progress, holes);
    }

    /**
     * The same request with another sparse mode. Engines derive the requests they pass on with these
     * {@code with} methods rather than the constructor, so what a later release adds to a request is
     * kept.
     */
    public CopyRequest withSparse(SparseMode mode) {
        return new CopyRequest(source, target, position, length, fileSize, mode, progress, holes, mayShareExtents);
    }

    /**
     * The same request for another range of the same file (a part an engine copies by other means).
     *
     * @since 0.2.0
     */
    public CopyRequest withRange(long newPosition, long newLength) {
        return new CopyRequest(source, target, newPosition, newLength, fileSize, sparse, progress, holes, mayShareExtents);
    }

    /**
     * The same request reporting to another progress (one that paces, counts or filters, and passes
     * the bytes on).
     *
     * @since 0.2.0
     */
    public CopyRequest withProgress(CopyProgress newProgress) {
        return new CopyRequest(source, target, position, length, fileSize, sparse, newProgress, holes, mayShareExtents);
    }

    /**
     * The same request with what is known of the source's holes.
     *
     * @since 0.2.0
     */
    public CopyRequest withHoles(Holes newHoles) {
        return new CopyRequest(source, target, position, length, fileSize, sparse, progress, newHoles, mayShareExtents);
    }

    /**
     * The same request, allowed or not to share the source's extents.
     *
     * @since 0.2.0
     */
    public CopyRequest withMayShareExtents(boolean may) {
        return new CopyRequest(source, target, position, length, fileSize, sparse, progress, holes, may);
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
