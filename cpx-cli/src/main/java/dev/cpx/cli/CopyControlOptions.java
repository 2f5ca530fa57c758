package dev.cpx.cli;

import dev.cpx.api.CopyOptions;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** What cpx adds to the copy itself: excludes, resume, verification, dry run, durability. */
public final class CopyControlOptions implements Specs.Target {

    /** The command these options belong to (for usage errors); set by {@link CpxCommand}. */
    CommandSpec spec;

    final List<String> excludes = new ArrayList<>();
    boolean resume;
    boolean verify;
    boolean dryRun;
    boolean fsync;

    /** Adds these options to the command's model {@code s}, in code (see {@link Specs}). */
    void addTo(CommandSpec s) {
        s.addOption(Specs.flag(this, "Finish an interrupted copy: skip destination files that are complete (same size and "
                + "time), continue partial large files, and go on into a destination that was being made as the copy.",
                "--resume"));
        s.addOption(Specs.flag(this, "Read every copied file back and compare it with its source (CRC32C).", "--verify"));
        s.addOption(Specs.flag(this, "Print what would be copied, created, overwritten or skipped; change nothing.", "--dry-run"));
        s.addOption(Specs.flag(this, "Make files and directories durable on disk before exiting.", "--fsync"));
        s.addOption(Specs.value(this, "PATTERN", "Skip entries matching the glob PATTERN: against the path below the source, "
                + "or the name alone when PATTERN has no '/'; a trailing '/' matches directories only. Repeatable.",
                "-e", "--exclude"));
        s.addOption(Specs.value(this, "FILE", "Read exclude patterns from FILE, one per line; blank lines and lines starting "
                + "with # are ignored.", "--exclude-from"));
    }

    @Override
    public void set(String key, Object value) {
        switch (key) {
            case "--exclude" -> excludes.add((String) value);
            case "--exclude-from" -> addExcludesFrom((String) value);
            case "--resume" -> resume = true;
            case "--verify" -> verify = true;
            case "--dry-run" -> dryRun = true;
            case "--fsync" -> fsync = true;
            default -> throw new IllegalStateException("no such option: " + key);
        }
    }

    private void addExcludesFrom(String file) {
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

    /** Adds these options to {@code builder}. */
    CopyOptions.Builder applyTo(CopyOptions.Builder builder) {
        return builder.excludes(excludes).resume(resume).verify(verify).dryRun(dryRun).fsync(fsync);
    }
}
