package dev.cpx.core;

import dev.cpx.api.CopyJob;
import dev.cpx.api.CopyListener;
import dev.cpx.api.CopyOptions;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.PosixExtras;
import dev.cpx.core.run.CopyRun;
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
        return CopyRun.start(options, engine, extras, listener, (context, end) -> Walk.root(context, sources, destination, end));
    }
}
