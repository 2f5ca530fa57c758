package dev.cpx.core;

import dev.cpx.api.Progress;
import java.util.concurrent.atomic.LongAdder;

/** Live totals of one run, updated by every worker without contention. */
final class Counters {
    final LongAdder filesFound = new LongAdder();
    final LongAdder bytesFound = new LongAdder();
    final LongAdder filesDone = new LongAdder();
    final LongAdder bytesDone = new LongAdder();
    final LongAdder files = new LongAdder();
    final LongAdder directories = new LongAdder();
    final LongAdder symlinks = new LongAdder();
    final LongAdder specials = new LongAdder();
    final LongAdder bytes = new LongAdder();
    final LongAdder skipped = new LongAdder();
    final LongAdder failed = new LongAdder();
    volatile boolean walkDone;

    Progress progress() {
        return new Progress(filesFound.sum(), bytesFound.sum(), filesDone.sum(), bytesDone.sum(), walkDone);
    }
}
