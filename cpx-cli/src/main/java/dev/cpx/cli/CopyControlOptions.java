package dev.cpx.cli;

import dev.cpx.api.CopyOptions;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** What cpx adds to the copy itself: excludes, resume, verification, dry run, durability. */
public final class CopyControlOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    final List<String> excludes = new ArrayList<>();

    @Option(names = {"-e", "--exclude"}, paramLabel = "PATTERN",
            description = "Skip entries matching the glob PATTERN: against the path below the source, or the name "
                    + "alone when PATTERN has no '/'; a trailing '/' matches directories only. Repeatable.")
    void addExclude(String pattern) {
        excludes.add(pattern);
    }

    @Option(names = "--exclude-from", paramLabel = "FILE",
            description = "Read exclude patterns from FILE, one per line; blank lines and lines starting with # are ignored.")
    void addExcludesFrom(String file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(PathBytes.path(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "cannot read exclude file " + dev.cpx.api.ShellQuote.quote(file)
                    + ": " + dev.cpx.api.Diagnostic.reasonOf(e));
        }
        for (String line : lines) {
            String pattern = line.strip();
            if (!pattern.isEmpty() && !pattern.startsWith("#")) {
                excludes.add(pattern);
            }
        }
    }

    @Option(names = "--resume",
            description = "Finish an interrupted copy: skip destination files that are complete (same size and time), "
                    + "continue partial large files, and go on into a destination that was being made as the copy.")
    boolean resume;

    @Option(names = "--verify", description = "Read every copied file back and compare it with its source (CRC32C).")
    boolean verify;

    @Option(names = "--dry-run", description = "Print what would be copied, created, overwritten or skipped; change nothing.")
    boolean dryRun;

    @Option(names = "--fsync", description = "Make files and directories durable on disk before exiting.")
    boolean fsync;

    /** Adds these options to {@code builder}. */
    CopyOptions.Builder applyTo(CopyOptions.Builder builder) {
        return builder.excludes(excludes).resume(resume).verify(verify).dryRun(dryRun).fsync(fsync);
    }
}
