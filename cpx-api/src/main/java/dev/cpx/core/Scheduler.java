package dev.cpx.core;

import dev.cpx.api.CopyJob;
import dev.cpx.api.CopyListener;
import dev.cpx.api.CopyOptions;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.PosixExtras;
import dev.cpx.core.run.CopyRun;
import dev.cpx.core.run.FirstWorkers;
import dev.cpx.core.run.Workers;
import dev.cpx.core.walk.EntryList;
import dev.cpx.core.walk.Walk;
import java.nio.file.Path;
import java.util.List;

/**
 * The shared parallel scheduler above every engine: what {@link dev.cpx.api.Cpx} starts. An entry
 * is walked ({@code core.walk}), decided ({@code core.decide}: GNU's rules as functions), copied
 * ({@code core.copy}) and finished ({@code core.finish}: attributes), on a run ({@code core.run}:
 * the workers, cancellation, outcomes) whose every change to the destination passes one seam
 * ({@code core.fs.Effects}). Not exported from the module: not an API.
 */
public final class Scheduler {

    private Scheduler() {
    }

    /** Starts copying {@code sources} to {@code destination} in the background; see {@link dev.cpx.api.Cpx#start}. */
    public static CopyJob start(List<Path> sources, Path destination, CopyOptions options, CopyEngine engine,
            PosixExtras extras, CopyListener listener) {
        FirstWorkers.Pool pool = FirstWorkers.of(options.jobs(), options.maxJobs(), Runtime.getRuntime().availableProcessors(),
                () -> FirstWorkers.inMemory(extras, sources, destination));
        return CopyRun.start(options, engine, extras, listener, (context, end) -> Walk.root(context, sources, destination, end),
                pool);
    }

    /**
     * Starts copying each of {@code entries} (a non-directory to the target given with it, in a
     * directory that exists) in the background, as one run with {@code options}: what a plan's worker
     * copies of a chunk. GNU's rules apply to each entry as to one met inside a directory that
     * existed; nothing is walked and no operand is read. The run is copied by {@code workers}, which
     * it leaves running for the next.
     */
    public static CopyJob startEntries(List<EntryList.Item> entries, CopyOptions options, CopyEngine engine,
            PosixExtras extras, CopyListener listener, Workers workers) {
        return CopyRun.start(options, engine, extras, listener, (context, end) -> Walk.entries(context, entries, end),
                workers);
    }
}
