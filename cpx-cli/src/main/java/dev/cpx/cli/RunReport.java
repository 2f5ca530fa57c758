package dev.cpx.cli;

import dev.cpx.api.CopySummary;
import dev.cpx.api.FileOutcome;
import java.util.List;

/**
 * Everything the end of a copy reports, for the summary on standard error and the JSON document.
 *
 * @param summary the scheduler's totals
 * @param failures every failure, in the order reported
 * @param signal the signal that interrupted the copy, or null
 * @param engine the id of the engine that copied
 * @param jobs the most worker threads the copy ran at once ({@link dev.cpx.api.CopyJob#workers()})
 */
record RunReport(CopySummary summary, List<FileOutcome> failures, Interrupts.Kind signal, String engine, int jobs) {

    RunReport {
        failures = List.copyOf(failures);
    }

    /** 129, 130 or 143 after a signal, 1 when anything failed, else 0. */
    int exitStatus() {
        if (signal != null) {
            return signal.exitStatus();
        }
        return summary.succeeded() ? 0 : 1;
    }

    /** {@code completed}, {@code failed} or {@code interrupted}. */
    String status() {
        if (signal != null || summary.cancelled()) {
            return "interrupted";
        }
        return summary.failed() > 0 ? "failed" : "completed";
    }
}
