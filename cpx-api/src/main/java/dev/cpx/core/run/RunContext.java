package dev.cpx.core.run;

import dev.cpx.api.CopyOptions;
import dev.cpx.core.fs.Anchors;
import dev.cpx.core.fs.Effects;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.PosixExtras;

/**
 * What every part of one run may need, and nothing it could reach back through: the options, the
 * engine, the native extras ({@link PosixExtras#none()} where there are none), where outcomes go,
 * whether the run is cancelled, the one seam every change to the destination passes, and the
 * directories held open that every name below an operand is reached through.
 */
public record RunContext(CopyOptions options, CopyEngine engine, PosixExtras extras, Outcomes outcomes,
        Cancellation cancellation, Effects effects, Anchors anchors) {

    /** The live counters (also reachable through the outcomes). */
    public Counters counters() {
        return outcomes.counters();
    }

    public boolean cancelled() {
        return cancellation.cancelled();
    }
}
