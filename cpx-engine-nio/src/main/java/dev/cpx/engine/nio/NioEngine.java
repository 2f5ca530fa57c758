package dev.cpx.engine.nio;

import dev.cpx.spi.Availability;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.SparseMode;
import dev.cpx.spi.support.BufferedCopy;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;

/**
 * Pure NIO engine: {@link FileChannel#transferTo}, which the JDK turns into {@code sendfile} (17)
 * or {@code copy_file_range} (21+). Runs wherever Java runs. It cannot find holes itself;
 * {@code --sparse=always} makes holes from zero blocks with a read/write loop. Where the scheduler says the source has holes, {@code --sparse=auto} makes holes
 * from zero blocks the same way (GNU cp's heuristic before {@code SEEK_DATA}). A request that may not
 * share extents ({@code --reflink=never}) is copied by the read/write loop too.
 */
public final class NioEngine implements CopyEngine {

    /** Bytes per {@code transferTo} call: small enough for progress and cancellation inside big files. */
    static final long CHUNK = 16L << 20;

    @Override
    public String id() {
        return "nio";
    }

    @Override
    public String description() {
        return "pure Java NIO: FileChannel.transferTo (sendfile on JDK 17, copy_file_range on JDK 21+)";
    }

    @Override
    public Availability availability() {
        return Availability.ok();
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    public long copy(CopyRequest request) throws IOException {
        if (request.sparse() == SparseMode.ALWAYS || !request.mayShareExtents()) {
            // (transferTo is copy_file_range on JDK 21+, which makes a reflink where it can.)
            return BufferedCopy.copy(request);
        }
        if (request.sparse() == SparseMode.AUTO && request.holes() == CopyRequest.Holes.SOME) {
            return BufferedCopy.copy(request.withSparse(SparseMode.ALWAYS));
        }
        FileChannel source = request.source();
        FileChannel target = request.target();
        long end = request.end();
        long pos = request.position();
        // transferTo writes at the target's own position (see the JDK note in README): put it at the range.
        target.position(pos);
        while (pos < end) {
            long n;
            try {
                n = source.transferTo(pos, Math.min(CHUNK, end - pos), target);
            } catch (ClosedChannelException x) {
                throw x; // interrupted or closed: no fallback
            } catch (IOException x) {
                // Where sendfile refuses a pair of files, JDK 17 maps the source, and stops using sendfile
                // for every later file: a file that cannot be mapped (a sysfs attribute: ENODEV) fails
                // there. Read it instead; a real read or write error comes again, in its own words.
                return BufferedCopy.copy(request, pos);
            }
            if (n <= 0) {
                // End of file, or a file whose size stat does not tell (procfs, a device read as data:
                // JDK 21+ transfers nothing past size()): read it instead.
                if (pos == request.position() || n < 0 || source.size() < pos) {
                    long rest = BufferedCopy.copy(request, pos);
                    return rest;
                }
                break;
            }
            pos += n;
            request.progress().advance(n);
        }
        return pos - request.position();
    }
}
