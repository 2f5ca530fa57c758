package dev.cpx.core.copy;

import dev.cpx.api.Diagnostic;

/**
 * What moving one file's data came to: the bytes copied, or why not: a failure, or an interruption
 * (the run was cancelled; a skip, not a failure).
 */
record DataResult(long bytes, Diagnostic failure, Diagnostic interruption) {

    static DataResult copied(long bytes) {
        return new DataResult(bytes, null, null);
    }

    static DataResult failed(Diagnostic why) {
        return new DataResult(-1, why, null);
    }

    static DataResult interrupted(Diagnostic why) {
        return new DataResult(-1, null, why);
    }

    boolean ok() {
        return failure == null && interruption == null;
    }
}
