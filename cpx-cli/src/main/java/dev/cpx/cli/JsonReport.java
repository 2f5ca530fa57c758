package dev.cpx.cli;

import dev.cpx.api.CopySummary;
import dev.cpx.api.FileOutcome;
import dev.cpx.spi.support.PathBytes;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Locale;

/**
 * The summary and every failure as one JSON document, for {@code --json}. Keys keep their meaning;
 * new keys may be added. A path is a string: its bytes decoded as UTF-8, each invalid byte shown as
 * U+FFFD; when the name is not valid UTF-8 a second key ({@code sourceBase64}, {@code targetBase64})
 * carries its exact bytes in base64, so no name is lost.
 *
 * <pre>
 * {
 *   "status": "failed",
 *   "exitStatus": 1,
 *   "signal": null,
 *   "engine": "native",
 *   "jobs": 2,
 *   "files": 1234,
 *   ...
 *   "failures": [
 *     {"message": "cannot open 'a/x' for reading: Permission denied", "reason": "Permission denied",
 *      "kind": "file", "source": "a/x", "target": "b/x"}
 *   ]
 * }
 * </pre>
 */
final class JsonReport {

    private JsonReport() {
    }

    /** The document, ending with a newline. */
    static String render(RunReport report) {
        CopySummary s = report.summary();
        StringBuilder sb = new StringBuilder(256 + 160 * report.failures().size());
        sb.append("{\n");
        field(sb, "status", string(report.status()));
        field(sb, "exitStatus", Integer.toString(report.exitStatus()));
        field(sb, "signal", report.signal() == null ? "null" : string("SIG" + report.signal().name()));
        field(sb, "engine", string(report.engine()));
        field(sb, "jobs", Integer.toString(report.jobs()));
        field(sb, "files", Long.toString(s.files()));
        field(sb, "directories", Long.toString(s.directories()));
        field(sb, "symlinks", Long.toString(s.symlinks()));
        field(sb, "specials", Long.toString(s.specials()));
        field(sb, "bytes", Long.toString(s.bytes()));
        field(sb, "skipped", Long.toString(s.skipped()));
        field(sb, "failed", Long.toString(s.failed()));
        field(sb, "elapsedSeconds", String.format(Locale.ROOT, "%.3f", s.elapsed().toNanos() / 1e9));
        field(sb, "bytesPerSecond", Long.toString(Math.round(s.bytesPerSecond())));
        sb.append("  \"failures\": [");
        String separator = "\n";
        for (FileOutcome f : report.failures()) {
            sb.append(separator).append("    {");
            member(sb, "message", string(f.diagnostic().toString()), true);
            member(sb, "reason", string(f.diagnostic().reason()), false);
            member(sb, "kind", string(f.kind().name().toLowerCase(Locale.ROOT)), false);
            path(sb, "source", f.source());
            path(sb, "target", f.target());
            sb.append('}');
            separator = ",\n";
        }
        sb.append(report.failures().isEmpty() ? "]\n" : "\n  ]\n");
        sb.append("}\n");
        return sb.toString();
    }

    private static void field(StringBuilder sb, String key, String json) {
        sb.append("  ").append(string(key)).append(": ").append(json).append(",\n");
    }

    private static void member(StringBuilder sb, String key, String json, boolean first) {
        if (!first) {
            sb.append(", ");
        }
        sb.append(string(key)).append(": ").append(json);
    }

    /** {@code "key": "text"}, plus {@code "keyBase64": "..."} when the name is not valid UTF-8; null stays null. */
    private static void path(StringBuilder sb, String key, Path path) {
        if (path == null) {
            member(sb, key, "null", false);
            return;
        }
        byte[] bytes = PathBytes.of(path);
        // Invalid bytes decode to lone surrogates (PathBytes' escapes), which string() shows as U+FFFD.
        String decoded = PathBytes.decode(bytes);
        member(sb, key, string(decoded), false);
        if (!validUtf8(decoded)) {
            member(sb, key + "Base64", string(Base64.getEncoder().encodeToString(bytes)), false);
        }
    }

    /** Whether every surrogate in {@code s} is half of a pair (a character outside the BMP), none an escaped byte. */
    private static boolean validUtf8(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /** A JSON string literal: quotes, backslashes and control characters escaped; lone surrogates become U+FFFD. */
    static String string(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                        sb.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        sb.append('\ufffd');
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
