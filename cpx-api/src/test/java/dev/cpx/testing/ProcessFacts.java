package dev.cpx.testing;

import dev.cpx.core.fs.Umask;

/** What tests outside cpx-api need to know of the process, from the scheduler's own reading of it. */
public final class ProcessFacts {

    private ProcessFacts() {
    }

    /** The process umask. */
    public static int umask() {
        return Umask.get();
    }
}
