package dev.cpx.core.plan;

import dev.cpx.api.CopyOptions;
import dev.cpx.core.finish.Metadata;
import dev.cpx.core.finish.Xattrs;
import dev.cpx.core.fs.Anchors;
import dev.cpx.core.fs.Effects;
import dev.cpx.core.run.Outcomes;
import dev.cpx.spi.PosixExtras;

/**
 * The attribute code of a single-machine copy, as the plan's steps use it outside a run: entries
 * reached by path, one at a time (no directory held open), changes made for real.
 */
final class PlanAttributes {

    private PlanAttributes() {
    }

    static Metadata of(CopyOptions o, PosixExtras extras, Outcomes outcomes) {
        Anchors anchors = Anchors.none();
        Effects effects = Effects.live(extras, anchors);
        return new Metadata(o, effects, outcomes, new Xattrs(o, extras, effects, outcomes, anchors));
    }
}
