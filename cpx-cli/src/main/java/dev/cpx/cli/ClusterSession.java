package dev.cpx.cli;

import dev.cpx.api.CopyOptions;
import dev.cpx.api.CopyPlan;
import dev.cpx.api.Cpx;
import dev.cpx.api.FileOutcome;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The command line's side of {@link CopyPlan}: {@code --plan}, {@code --work}, {@code --finish},
 * {@code --status}. Workers and the finish step take every copy option from the plan, so a
 * command line that gives one to them is refused rather than silently ignored.
 */
final class ClusterSession {

    /** Options that --work, --finish and --status accept: how they run and report, not what they copy. */
    private static final Set<String> RUN_OPTIONS = Set.of("--work", "--finish", "--status", "--jobs", "--json", "--quiet",
            "--no-summary", "--summary", "--progress", "--no-progress", "--debug", "--no-config", "--plugin-path", "--verbose");

    private final CpxCommand command;
    private final ClusterOptions cluster;
    private final Output output;
    private final String program;

    ClusterSession(CpxCommand command, ClusterOptions cluster, Output output) {
        this.command = command;
        this.cluster = cluster;
        this.output = output;
        this.program = Main.programName();
    }

    /** Runs the step asked for and returns the exit status. */
    int run(Cpx cpx, CopyOptions options, List<Path> sources, Path destination) throws Exception {
        int steps = (cluster.plan != null ? 1 : 0) + (cluster.work != null ? 1 : 0) + (cluster.finish != null ? 1 : 0)
                + (cluster.status != null ? 1 : 0);
        if (steps != 1) {
            throw usage(steps == 0 ? "--chunks, --lease and --split-size go with --plan"
                    : "only one of --plan, --work, --finish and --status at a time");
        }
        String dir = cluster.plan != null ? cluster.plan : cluster.work != null ? cluster.work
                : cluster.finish != null ? cluster.finish : cluster.status;
        if (dir.isEmpty()) {
            // An empty name is no directory (the kernel's ENOENT), not the working directory as for Java.
            output.err(program + ": plan directory '': No such file or directory");
            return 1;
        }
        try {
            if (cluster.plan != null) {
                return plan(cpx, options, sources, destination);
            }
            refuseCopyOptions();
            if (!command.operands.isEmpty()) {
                throw usage("extra operand " + dev.cpx.api.ShellQuote.quote(command.operands.get(0))
                        + " (workers and the finish step take the operands from the plan)");
            }
            if (cluster.work != null) {
                return work(cpx);
            }
            if (cluster.finish != null) {
                return finish(cpx);
            }
            return status(cpx);
        } catch (IOException e) {
            output.err(program + ": " + e.getMessage());
            return 1;
        }
    }

    private void refuseCopyOptions() {
        ParseResult parsed = command.spec.commandLine().getParseResult();
        for (OptionSpec o : parsed.matchedOptions()) {
            if (!RUN_OPTIONS.contains(o.longestName())) {
                throw usage(o.longestName() + " cannot be given to " + step()
                        + ": the copy's options were fixed when it was planned");
            }
        }
    }

    private String step() {
        return cluster.work != null ? "--work" : cluster.finish != null ? "--finish" : "--status";
    }

    private int plan(Cpx cpx, CopyOptions options, List<Path> sources, Path destination) throws IOException {
        if (cluster.chunks < 1) {
            throw usage("invalid number of chunks: " + cluster.chunks);
        }
        if (cluster.leaseSeconds < 1) {
            throw usage("invalid lease: " + cluster.leaseSeconds + " seconds");
        }
        long split = cluster.splitBytes();
        if (split < 0) {
            throw usage("invalid split size: " + dev.cpx.api.ShellQuote.quote(cluster.splitSize));
        }
        CopyPlan plan = CopyPlan.at(cpx, PathBytes.path(cluster.plan));
        CopyPlan.Planned p = plan.create(sources, destination, options, cluster.chunks, Duration.ofSeconds(cluster.leaseSeconds),
                split);
        if (!command.display.quiet) {
            output.err(String.format(Locale.ROOT, "%s: planned %d chunks: %d entries and %d directories, %s, in %.2f s "
                    + "(largest chunk: %d entries, %s)", program, p.chunks(), p.entries(), p.directories(),
                    Units.bytes(p.bytes()), p.elapsed().toNanos() / 1e9, p.largestChunkEntries(),
                    Units.bytes(p.largestChunkBytes())));
        }
        return 0;
    }

    private int work(Cpx cpx) throws IOException, InterruptedException {
        CopyPlan plan = CopyPlan.at(cpx, PathBytes.path(cluster.work));
        CopyPlan.WorkDone w = plan.work(command.jobsGiven(), line -> output.err(program + ": " + line));
        for (FileOutcome f : w.failures()) {
            output.err(program + ": " + f.diagnostic());
        }
        if (!command.display.quiet) {
            output.err(String.format(Locale.ROOT, "%s: worker copied %d chunks: %d files, %s, %d skipped, %d failed, in %.2f s",
                    program, w.chunks(), w.summary().files(), Units.bytes(w.summary().bytes()), w.summary().skipped(),
                    w.summary().failed(), w.summary().elapsed().toNanos() / 1e9));
        }
        output.flush();
        return w.succeeded() ? 0 : 1;
    }

    private int finish(Cpx cpx) throws IOException {
        CopyPlan plan = CopyPlan.at(cpx, PathBytes.path(cluster.finish));
        CopyPlan.Finished f = plan.finish();
        for (FileOutcome o : f.failures()) {
            output.err(program + ": " + o.diagnostic());
        }
        RunReport report = new RunReport(f.summary(), f.failures(), null, "plan", command.engines.jobs());
        if (command.display.showSummary() || (!command.display.quiet && !command.display.noSummary && !command.display.json)) {
            for (String line : SummaryText.lines(program, report, null)) {
                output.err(line);
            }
        }
        if (command.display.json) {
            output.document(JsonReport.render(report));
        }
        output.flush();
        return f.succeeded() ? 0 : 1;
    }

    private int status(Cpx cpx) throws IOException {
        CopyPlan.Status s = CopyPlan.at(cpx, PathBytes.path(cluster.status)).status();
        if (command.display.json) {
            output.document(String.format(Locale.ROOT, "{\n  \"chunks\": %d,\n  \"todo\": %d,\n  \"claimed\": %d,\n  \"done\": %d,\n"
                    + "  \"failed\": %d,\n  \"bytes\": %d,\n  \"bytesDone\": %d,\n  \"bytesPerSecond\": %d,\n  \"etaSeconds\": %s\n}\n",
                    s.chunks(), s.todo(), s.claimed(), s.done(), s.failed(), s.bytes(), s.bytesDone(),
                    Math.round(s.bytesPerSecond()), s.eta() == null ? "null" : Long.toString(s.eta().toSeconds())));
        } else {
            output.out(String.format(Locale.ROOT, "chunks: %d to do, %d claimed, %d done, %d failed (of %d)",
                    s.todo(), s.claimed(), s.done(), s.failed(), s.chunks()));
            output.out(String.format(Locale.ROOT, "bytes:  %s of %s done; %s/s; %s left", Units.bytes(s.bytesDone()),
                    Units.bytes(s.bytes()), Units.bytes((long) s.bytesPerSecond()),
                    s.eta() == null ? "unknown time" : s.eta().toSeconds() + " s"));
        }
        output.flush();
        return 0;
    }

    private ParameterException usage(String message) {
        return new ParameterException(command.spec.commandLine(), message);
    }
}
