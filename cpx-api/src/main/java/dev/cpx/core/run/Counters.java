package dev.cpx.core.run;

import dev.cpx.api.Progress;
import java.util.concurrent.atomic.LongAdder;

/** Live totals of one run, updated by every worker without contention. */
public final class Counters {
    public final LongAdder filesFound = new LongAdder();
    public final LongAdder bytesFound = new LongAdder();
    public final LongAdder filesDone = new LongAdder();
    public final LongAdder bytesDone = new LongAdder();
    public final LongAdder files = new LongAdder();
    public final LongAdder directories = new LongAdder();
    public final LongAdder symlinks = new LongAdder();
    public final LongAdder specials = new LongAdder();
    public final LongAdder bytes = new LongAdder();
    public final LongAdder skipped = new LongAdder();
    public final LongAdder failed = new LongAdder();
    public volatile boolean walkDone;

    public Progress progress() {
        return new Progress(filesFound.sum(), bytesFound.sum(), filesDone.sum(), bytesDone.sum(), walkDone);
    }
}
