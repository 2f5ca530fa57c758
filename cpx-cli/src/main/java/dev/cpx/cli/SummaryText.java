package dev.cpx.cli;

import dev.cpx.api.CopySummary;
import dev.cpx.api.FileOutcome;
import dev.cpx.api.ShellQuote;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The summary for people, on standard error: one line of totals, then every failure with its
 * reason. Past {@link #LISTED} failures, all of them go to a file that the summary names, and the
 * summary shows the first ones: none is hidden, and the terminal is not flooded.
 *
 * <pre>
 * cpx: copied 1234 files (1.2 GiB), 56 directories, 7 symlinks in 3.4 s (350 MiB/s); 0 skipped, 2 failed:
 *   cannot open 'a/x' for reading: Permission denied
 *   cannot create regular file 'b/y': No space left on device
 * </pre>
 */
final class SummaryText {

    /** Failures listed in the summary itself; more go to a file. */
    static final int LISTED = 20;

    private SummaryText() {
    }

    /** The lines of the summary; {@code failuresFile} holds all failures when there are more than {@link #LISTED}. */
    static List<String> lines(String program, RunReport report, Path failuresFile) {
        CopySummary s = report.summary();
        StringBuilder totals = new StringBuilder(program).append(": ");
        if (report.signal() != null || s.cancelled()) {
            totals.append("interrupted after ").append(Units.duration(s.elapsed())).append(": copied ");
        } else {
            totals.append("copied ");
        }
        totals.append(Units.count(s.files(), "file", "files")).append(" (").append(Units.bytes(s.bytes())).append("), ")
                .append(Units.count(s.directories(), "directory", "directories")).append(", ")
                .append(Units.count(s.symlinks(), "symlink", "symlinks"));
        if (s.specials() > 0) {
            totals.append(", ").append(Units.count(s.specials(), "special file", "special files"));
        }
        if (report.signal() == null && !s.cancelled()) {
            totals.append(" in ").append(Units.duration(s.elapsed()));
        }
        totals.append(" (").append(Units.rate(s.bytesPerSecond())).append("); ")
                .append(s.skipped()).append(" skipped, ").append(s.failed()).append(" failed");
        List<FileOutcome> failures = report.failures();
        List<String> lines = new ArrayList<>();
        if (failures.isEmpty()) {
            lines.add(totals.toString());
            return lines;
        }
        int shown = failures.size();
        if (failures.size() > LISTED && failuresFile != null) {
            totals.append("; all ").append(failures.size()).append(" failures are listed in ").append(ShellQuote.quote(failuresFile))
                    .append(", the first ").append(LISTED).append(':');
            shown = LISTED;
        } else {
            totals.append(':');
        }
        lines.add(totals.toString());
        for (int i = 0; i < shown; i++) {
            lines.add("  " + failures.get(i).diagnostic());
        }
        return lines;
    }

    /**
     * Writes every failure, one {@code program: message} line each, to a new file in {@code dir}
     * named {@code cpx-failures-PID-*.txt}; returns it, or null when it cannot be written.
     */
    static Path writeFailures(String program, List<FileOutcome> failures, Path dir) {
        try {
            Path file = Files.createTempFile(dir, "cpx-failures-" + ProcessHandle.current().pid() + "-", ".txt");
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                for (FileOutcome f : failures) {
                    w.write(program + ": " + f.diagnostic());
                    w.newLine();
                }
            }
            return file;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Where failure lists go: {@code $TMPDIR}, else {@code /tmp}. */
    static Path failuresDirectory() {
        String tmp = System.getenv("TMPDIR");
        return Path.of(tmp == null || tmp.isEmpty() ? "/tmp" : tmp);
    }
}
