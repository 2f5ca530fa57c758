package dev.cpx.cli;

import dev.cpx.api.CopyJob;
import dev.cpx.api.CopySummary;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * One copy as the command runs it: signals handled and progress shown while it runs; then the
 * summary (standard error), the JSON document (standard output), the hint after an interruption,
 * and the exit status.
 */
final class CopySession {

    /** What an interrupted copy tells the user to do next. */
    static final String RESUME_HINT = "interrupted; run the same command with --resume to finish";

    private final String program;
    private final OutputOptions options;
    private final Output output;
    private final Reporter reporter;

    CopySession(String program, OutputOptions options, Output output, Reporter reporter) {
        this.program = program;
        this.options = options;
        this.output = output;
        this.reporter = reporter;
    }

    /** Starts the copy with {@code start}, waits for it, reports, and returns the exit status. */
    int run(Callable<CopyJob> start, String engine, int jobs, boolean dryRun) throws Exception {
        try (Interrupts interrupts = Interrupts.install()) {
            reporter.interruptedBy(interrupts::interrupted);
            CopyJob job = start.call();
            interrupts.watch(job);
            CopySummary summary;
            ProgressDisplay progress = options.showProgress() ? ProgressDisplay.start(job, output) : null;
            try {
                summary = job.await();
            } finally {
                if (progress != null) {
                    progress.close();
                }
            }
            if (dryRun) {
                reporter.dryRunTotals(summary);
            }
            // The workers the run had at most (one per core from tmpfs to tmpfs, more while the disk waited).
            RunReport report = new RunReport(summary, reporter.failures(), interrupts.signal(), engine,
                    job.workers() > 0 ? job.workers() : jobs);
            report(report);
            return report.exitStatus();
        }
    }

    private void report(RunReport report) {
        if (options.showSummary()) {
            Path failuresFile = report.failures().size() > SummaryText.LISTED
                    ? SummaryText.writeFailures(program, report.failures(), SummaryText.failuresDirectory())
                    : null;
            for (String line : SummaryText.lines(program, report, failuresFile)) {
                output.err(line);
            }
        }
        if (options.json) {
            output.document(JsonReport.render(report));
        }
        if (report.signal() != null) {
            reporter.error(RESUME_HINT);
        }
        output.flush();
    }
}
