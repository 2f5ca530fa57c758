package dev.cpx.cli.differential;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Writes each failing row as one JSON line to {@code target/differential/GROUP.jsonl}
 * ({@code -Dcpx.matrix.report.dir} elsewhere), the file started afresh by the first failure of
 * a run; {@link FailureReport} turns these files into the Markdown failure report.
 */
final class FailureLog {

    private static final Path DIR = Path.of(System.getProperty("cpx.matrix.report.dir", "target/differential"));
    private static final Set<String> STARTED = new HashSet<>();

    private FailureLog() {
    }

    static synchronized void record(Row row, String engine, List<String> kinds, Differential.Run gnu, Differential.Run cpx,
            String treeDiff) {
        Map<String, Object> m = new TreeMap<>();
        m.put("group", row.group);
        m.put("rule", row.rule);
        m.put("name", row.name(engine));
        m.put("engine", engine);
        m.put("command", row.reproduction());
        m.put("differs", String.join(",", kinds));
        m.put("gnuExit", gnu.result().exit());
        m.put("cpxExit", cpx.result().exit());
        m.put("gnuErr", gnu.result().err());
        m.put("cpxErr", cpx.result().err());
        m.put("gnuOut", gnu.result().out());
        m.put("cpxOut", cpx.result().out());
        m.put("tree", treeDiff);
        StringBuilder sb = new StringBuilder("{");
        m.forEach((k, v) -> {
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append(json(k)).append(':').append(v instanceof Integer ? v.toString() : json(v.toString()));
        });
        sb.append("}\n");
        try {
            start(row.group);
            Files.writeString(DIR.resolve(row.group + ".jsonl"), sb.toString(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Forgets an earlier run's failures of {@code group}, so a group that now passes leaves an empty file. */
    static synchronized void start(String group) {
        if (STARTED.add(group)) {
            try {
                Files.createDirectories(DIR);
                Files.writeString(DIR.resolve(group + ".jsonl"), "", StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    static String json(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> {
                    if (ch < 0x20 || (ch >= 0xD800 && ch <= 0xDFFF)) {
                        sb.append(String.format("\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
