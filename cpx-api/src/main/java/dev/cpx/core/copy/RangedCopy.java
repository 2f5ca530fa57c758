package dev.cpx.core.copy;

import dev.cpx.api.CopyOptions;
import dev.cpx.core.run.RunContext;
import dev.cpx.spi.CopyProgress;
import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.SparseMode;
import dev.cpx.spi.support.FileDescriptors;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One large file copied as ranges by several of the run's workers at once, so that a 4 GiB file
 * does not keep one worker busy while the others wait. Each range is one engine request with
 * channels of its own: the first range uses the file's channels, the others reopen the same open
 * files through {@code /proc/self/fd} (the same inodes, whatever happens to the names meanwhile).
 *
 * <p>Ranges run in waves that span at most {@link #WINDOW} bytes, the next wave starting when the
 * last one is complete. So a partial copy has gaps only in its last {@link #WINDOW} bytes, which
 * is what {@code --resume} recopies of a {@code .cpx-part} file (whatever killed the copy). Only
 * dense copies are split (no holes to keep, none to make).
 */
final class RangedCopy {

    /** The most bytes of a file that ranges in flight span; see {@link NewFile#continuing}. */
    static final long WINDOW = 256L << 20;

    private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ);
    private static final Set<OpenOption> WRITE = Set.of(StandardOpenOption.WRITE);

    private final RunContext context;
    private final FileChannel in;
    private final FileChannel out;
    private final long size;
    private final CopyRequest.Holes holes;
    private final CopyProgress progress;
    /** The first failure of any range; the other ranges stop at their next progress report. */
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private RangedCopy(RunContext context, FileChannel in, FileChannel out, long size, CopyRequest.Holes holes,
            CopyProgress progress) {
        this.context = context;
        this.in = in;
        this.out = out;
        this.size = size;
        this.holes = holes;
        this.progress = progress;
    }

    /** Whether a file of {@code size} bytes is worth splitting in this run, with these holes. */
    static boolean worthIt(CopyOptions options, long size, CopyRequest.Holes holes) {
        long range = options.rangeSize();
        return range > 0 && 2 * range <= WINDOW && size >= 2 * range && options.jobs() > 1
                && holes != CopyRequest.Holes.SOME && options.sparse() != SparseMode.ALWAYS
                && ForkJoinTask.inForkJoinPool() && FileDescriptors.availability().available();
    }

    /**
     * Copies {@code size} bytes in ranges, then whatever the source holds past them (it grew) in
     * one piece, returning the bytes copied. Every wave spans at most {@link #WINDOW} bytes, and
     * the part past {@code size} comes only after all ranges are done. A range that meets the end
     * of the source early means the source shrank: the copy is then cut to the bytes copied
     * without a gap, as a copy in one piece would have ended there.
     */
    static long copy(RunContext context, FileChannel in, FileChannel out, long size, CopyRequest.Holes holes,
            CopyProgress progress) throws IOException {
        return new RangedCopy(context, in, out, size, holes, progress).copy();
    }

    private long copy() throws IOException {
        long rangeSize = context.options().rangeSize();
        long count = (size + rangeSize - 1) / rangeSize;
        int wave = (int) (WINDOW / rangeSize);
        long copied = 0;
        for (long first = 0; first < count; first += wave) {
            List<Range> ranges = new ArrayList<>(wave);
            for (long i = first; i < Math.min(count, first + wave); i++) {
                long position = i * rangeSize;
                ranges.add(new Range(position, Math.min(rangeSize, size - position)));
            }
            ForkJoinTask.invokeAll(ranges);
            rethrowFailure();
            for (Range r : ranges) {
                copied += r.copied;
                if (r.copied < r.length) {
                    out.truncate(copied);
                    return copied;
                }
            }
        }
        return copied + context.engine().copy(new CopyRequest(in, out, size, CopyRequest.TO_END, size, context.options().sparse(),
                progress, holes, context.options().mayShareExtents()));
    }

    /** Throws the first range's failure as it was thrown there (an engine's bug stays a bug). */
    private void rethrowFailure() throws IOException {
        Throwable first = failure.get();
        if (first instanceof IOException e) {
            throw e;
        } else if (first instanceof RuntimeException e) {
            throw e;
        } else if (first instanceof Error e) {
            throw e;
        }
    }

    /** Thrown into a range's engine when another range has failed. */
    private static final class Stopped extends InterruptedIOException {
        Stopped() {
            super("another range of the file failed");
        }
    }

    /** One range, copied with channels of its own (the file's own for the first range). */
    private final class Range extends RecursiveAction {
        private final long position;
        private final long length;
        private long copied;

        Range(long position, long length) {
            this.position = position;
            this.length = length;
        }

        @Override
        protected void compute() {
            if (failure.get() != null) {
                return;
            }
            CopyProgress mine = bytes -> {
                if (failure.get() != null) {
                    throw new Stopped();
                }
                progress.advance(bytes);
            };
            boolean first = position == 0;
            try (FileChannel source = first ? null : reopen(in, READ); FileChannel target = first ? null : reopen(out, WRITE)) {
                copied = context.engine().copy(new CopyRequest(first ? in : source, first ? out : target, position, length, size,
                        context.options().sparse(), mine, holes, context.options().mayShareExtents()));
            } catch (Stopped e) {
                // the failure that stopped it is reported
            } catch (IOException | RuntimeException | Error e) {
                failure.compareAndSet(null, e);
            }
        }
    }

    private static FileChannel reopen(FileChannel channel, Set<OpenOption> how) throws IOException {
        return FileChannel.open(Path.of("/proc/self/fd/" + FileDescriptors.of(channel)), how);
    }
}
