package dev.cpx.core.plan;

import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.FileOutcome;
import dev.cpx.spi.support.PathBytes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A chunk's outcome, as the {@code --json} report counts it: entries copied by kind, bytes, skipped,
 * failed, and each failure with its message and paths (as bytes). Written to {@code reports/N}
 * before the chunk moves to {@code done/}; the finish step adds them up.
 *
 * @param rejected why the chunk was not copied at all (changed after planning), or empty
 */
public record ChunkReport(String chunk, String worker, long files, long symlinks, long specials, long bytes,
        long skipped, long failed, long nanos, String rejected, List<FileOutcome> failures) {

    private static final String HEADER = "cpx-chunk-report 1";

    public ChunkReport {
        failures = List.copyOf(failures);
    }

    /**
     * The totals of {@code reports} as a summary, with {@code directories} and {@code moreFailed}
     * (failures outside the reports) added.
     */
    public static dev.cpx.api.CopySummary sum(List<ChunkReport> reports, long directories, long moreFailed,
            java.time.Duration elapsed) {
        long files = 0;
        long symlinks = 0;
        long specials = 0;
        long bytes = 0;
        long skipped = 0;
        long failed = moreFailed;
        for (ChunkReport c : reports) {
            files += c.files();
            symlinks += c.symlinks();
            specials += c.specials();
            bytes += c.bytes();
            skipped += c.skipped();
            failed += c.failed();
        }
        return new dev.cpx.api.CopySummary(files, directories, symlinks, specials, bytes, skipped, failed, elapsed, false);
    }

    byte[] render() {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        sb.append("chunk ").append(chunk).append('\n');
        sb.append("worker ").append(worker).append('\n');
        sb.append("counts ").append(files).append(' ').append(symlinks).append(' ').append(specials).append(' ')
                .append(bytes).append(' ').append(skipped).append(' ').append(failed).append(' ').append(nanos).append('\n');
        sb.append("rejected ").append(b64(rejected.getBytes(StandardCharsets.UTF_8))).append('\n');
        for (FileOutcome f : failures) {
            sb.append("failure ").append(f.kind().name()).append(' ').append(b64(path(f.source()))).append(' ')
                    .append(b64(path(f.target()))).append(' ')
                    .append(b64(f.diagnostic().withReason("").toString().getBytes(StandardCharsets.UTF_8))).append(' ')
                    .append(b64(f.diagnostic().reason().getBytes(StandardCharsets.UTF_8))).append('\n');
        }
        sb.append("end\n");
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    static ChunkReport read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        try (BufferedReader r = new BufferedReader(new StringReader(text))) {
            if (!HEADER.equals(r.readLine())) {
                throw new IOException("not a chunk report: " + file);
            }
            String chunk = value(r.readLine(), "chunk");
            String worker = value(r.readLine(), "worker");
            String[] c = value(r.readLine(), "counts").split(" ");
            String rejected = new String(unb64(value(r.readLine(), "rejected")), StandardCharsets.UTF_8);
            List<FileOutcome> failures = new ArrayList<>();
            for (String line = r.readLine(); ; line = r.readLine()) {
                if (line == null) {
                    throw new IOException("truncated chunk report: " + file);
                }
                if (line.equals("end")) {
                    break;
                }
                String[] f = value(line, "failure").split(" ", -1);
                Diagnostic d = new Diagnostic(new String(unb64(f[3]), StandardCharsets.UTF_8),
                        List.of(), new String(unb64(f[4]), StandardCharsets.UTF_8));
                failures.add(FileOutcome.failed(EntryKind.valueOf(f[0]), pathOf(f[1]), pathOf(f[2]), d));
            }
            return new ChunkReport(chunk, worker, Long.parseLong(c[0]), Long.parseLong(c[1]), Long.parseLong(c[2]),
                    Long.parseLong(c[3]), Long.parseLong(c[4]), Long.parseLong(c[5]), Long.parseLong(c[6]), rejected, failures);
        } catch (RuntimeException e) {
            throw new IOException("bad chunk report " + file + ": " + e.getMessage());
        }
    }

    private static String value(String line, String key) throws IOException {
        if (line == null || !line.startsWith(key + " ")) {
            throw new IOException("expected " + key);
        }
        return line.substring(key.length() + 1);
    }

    private static byte[] path(Path p) {
        return p == null ? null : PathBytes.of(p);
    }

    private static Path pathOf(String b64) {
        return b64.equals("-") ? null : PathBytes.path(unb64(b64));
    }

    private static String b64(byte[] b) {
        return b == null ? "-" : b.length == 0 ? "" : Base64.getEncoder().encodeToString(b);
    }

    private static byte[] unb64(String s) {
        return Base64.getDecoder().decode(s);
    }
}
