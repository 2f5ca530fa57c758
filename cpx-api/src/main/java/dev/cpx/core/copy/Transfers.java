package dev.cpx.core.copy;

import dev.cpx.api.FileInFlight;
import dev.cpx.spi.CopyProgress;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The files whose data is being copied right now, for {@link dev.cpx.api.CopyJob#inFlight()}. A file
 * of known size is listed from its first bytes on, and only where more are to come: a small file,
 * copied in one call, is never listed (no shared set touched per file on the common path).
 */
public final class Transfers {

    private final Set<Transfer> active = ConcurrentHashMap.newKeySet();

    /**
     * Starts tracking one file's data copy; {@code total} hears every byte too (and may cancel). A
     * source without a size (a FIFO, a device) is listed at once, as it may wait for its first bytes.
     */
    Transfer begin(Path source, Path target, long size, CopyProgress total) {
        Transfer t = new Transfer(source, target, size, total);
        if (size == 0) {
            t.list();
        }
        return t;
    }

    public List<FileInFlight> snapshot() {
        long now = System.nanoTime();
        List<FileInFlight> list = new ArrayList<>(active.size());
        for (Transfer t : active) {
            list.add(new FileInFlight(t.source, t.target, t.size, t.done.get(), Duration.ofNanos(now - t.started)));
        }
        return list;
    }

    /** One file's data copy: counts its bytes, passes them on to the run's total; closing ends it. */
    final class Transfer implements CopyProgress, AutoCloseable {
        private final Path source;
        private final Path target;
        private final long size;
        private final CopyProgress total;
        private final long started = System.nanoTime();
        private final AtomicLong done = new AtomicLong();
        /** In {@link #active}: set once, by whichever range's worker first sees more to come. */
        private volatile boolean listed;

        private Transfer(Path source, Path target, long size, CopyProgress total) {
            this.source = source;
            this.target = target;
            this.size = size;
            this.total = total;
        }

        @Override
        public void advance(long bytes) throws InterruptedIOException {
            total.advance(bytes);
            if (done.addAndGet(bytes) < size && !listed) {
                list();
            }
        }

        private void list() {
            listed = true;
            active.add(this);
        }

        @Override
        public void close() {
            if (listed) {
                active.remove(this);
            }
        }

        /** Identity's, but not {@link System#identityHashCode}, which costs a call into the VM per file where C1 compiles. */
        @Override
        public int hashCode() {
            return (int) (started ^ (started >>> 32));
        }

        @Override
        public boolean equals(Object o) {
            return o == this;
        }
    }
}
