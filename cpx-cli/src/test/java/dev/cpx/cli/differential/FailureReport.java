package dev.cpx.cli.differential;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Turns the failure logs of the differential suite ({@code target/differential/*.jsonl}, one line
 * per failing row and engine) into a Markdown report: failing rows grouped by group and rule, then
 * by what happened (GNU's and cpx's exit status and first message line, the parts that differ),
 * each with one example of the stderr and tree difference. Optionally appends the results of GNU's
 * own tests/cp scripts run against GNU cp and against cpx (directories of logs with a
 * {@code summary.txt}, as /work/gnu/run-all.sh writes them).
 *
 * <p>Run with the JDK's source launcher, no build needed:
 * {@code java cpx-cli/src/test/java/dev/cpx/cli/differential/FailureReport.java cpx-cli/target/differential REPORT.md [CPX_LOGS GNU_LOGS]}
 */
public final class FailureReport {

    private FailureReport() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: FailureReport FAILURE_DIR REPORT.md [CPX_GNU_TEST_LOGS GNU_CP_GNU_TEST_LOGS]");
            System.exit(2);
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of(args[0]))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList()) {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    if (!line.isBlank()) {
                        rows.add(parse(line));
                    }
                }
            }
        }
        StringBuilder md = new StringBuilder("# cpx differential suite: failing rows\n\n");
        md.append("Generated ").append(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME).substring(0, 16))
                .append(" by `FailureReport` from `").append(args[0]).append("/*.jsonl`: ")
                .append(rows.size()).append(" failing tests (a test is one row with one engine), ")
                .append(rows.stream().map(r -> baseName(s(r, "name"))).distinct().count()).append(" distinct rows.\n")
                .append("GNU cp 9.1 (`/usr/bin/cp`) is the judge in every row; \"tree\" lists the entries whose ")
                .append("description (type, size, content digest, mode, owner, link count, inode sharing, link target, xattrs, ")
                .append("times where preserved; `fresh` = set by the run) differs.\n\n");
        Map<String, Map<String, List<Map<String, Object>>>> byGroup = new TreeMap<>();
        for (var r : rows) {
            byGroup.computeIfAbsent(s(r, "group") + " — " + s(r, "rule"), k -> new TreeMap<>())
                    .computeIfAbsent(signature(r), k -> new ArrayList<>()).add(r);
        }
        md.append("## Summary\n\n| group — rule | failing tests | rows | kinds of difference |\n|---|---|---|---|\n");
        byGroup.forEach((g, sigs) -> {
            List<Map<String, Object>> all = sigs.values().stream().flatMap(List::stream).toList();
            md.append("| ").append(g).append(" | ").append(all.size()).append(" | ")
                    .append(all.stream().map(r -> baseName(s(r, "name"))).distinct().count()).append(" | ")
                    .append(sigs.size()).append(" |\n");
        });
        md.append('\n');
        byGroup.forEach((g, sigs) -> {
            int n = sigs.values().stream().mapToInt(List::size).sum();
            md.append("## ").append(g).append(" (").append(n).append(" failing)\n\n");
            sigs.forEach((sig, list) -> {
                md.append("### ").append(sig).append(" — ").append(list.size()).append("\n\n");
                Map<String, List<String>> engines = new LinkedHashMap<>();
                for (var r : list) {
                    engines.computeIfAbsent(baseName(s(r, "name")), k -> new ArrayList<>()).add(s(r, "engine"));
                }
                engines.forEach((name, e) -> md.append("- `").append(name).append("` ").append(String.join(", ", e)).append('\n'));
                var ex = list.get(0);
                md.append("\n  Example `").append(s(ex, "command")).append("`:\n\n```\n");
                md.append("GNU: exit ").append(ex.get("gnuExit")).append(oneLine(" stderr", s(ex, "gnuErr"))).append(oneLine(" stdout", s(ex, "gnuOut"))).append('\n');
                md.append("cpx: exit ").append(ex.get("cpxExit")).append(oneLine(" stderr", s(ex, "cpxErr"))).append(oneLine(" stdout", s(ex, "cpxOut"))).append('\n');
                String tree = s(ex, "tree");
                if (!tree.isEmpty()) {
                    List<String> lines = tree.lines().toList();
                    lines.stream().limit(12).forEach(l -> md.append(l).append('\n'));
                    if (lines.size() > 12) {
                        md.append("  ... (").append(lines.size() - 12).append(" more lines)\n");
                    }
                }
                md.append("```\n\n");
            });
        });
        if (args.length >= 3) {
            md.append(gnuTests(Path.of(args[2]), args.length >= 4 ? Path.of(args[3]) : null));
        }
        Files.writeString(Path.of(args[1]), md.toString(), StandardCharsets.UTF_8);
        System.out.println("wrote " + args[1] + ": " + rows.size() + " failing tests");
    }

    /** What happened, in a heading: the exit statuses, the first message lines (names elided), the parts that differ. */
    static String signature(Map<String, Object> r) {
        return "GNU exit " + r.get("gnuExit") + first(s(r, "gnuErr")) + "; cpx exit " + r.get("cpxExit") + first(s(r, "cpxErr"))
                + " (" + s(r, "differs") + ")";
    }

    private static String first(String err) {
        if (err.isEmpty()) {
            return ", silent";
        }
        String line = err.lines().findFirst().orElse("");
        line = line.replaceAll("'[^']*'", "'…'").replaceAll("\"[^\"]*\"", "\"…\"");
        return " `" + (line.length() > 110 ? line.substring(0, 110) + "…" : line) + "`";
    }

    private static String oneLine(String what, String text) {
        if (text.isEmpty()) {
            return "";
        }
        String t = text.stripTrailing().replace("\n", " ⏎ ");
        return what + ": " + (t.length() > 400 ? t.substring(0, 400) + "…" : t);
    }

    /** {@code group[args, variant, engine]} without the engine. */
    static String baseName(String name) {
        int comma = name.lastIndexOf(", ");
        return comma < 0 ? name : name.substring(0, comma) + "]";
    }

    private static String gnuTests(Path cpxLogs, Path gnuLogs) throws IOException {
        StringBuilder md = new StringBuilder("## GNU coreutils 9.1 tests/cp scripts\n\n");
        Map<String, String> gnu = gnuLogs == null ? Map.of() : summary(gnuLogs);
        Map<String, String> cpx = summary(cpxLogs);
        md.append("Run with `/work/gnu/run-gnu-test.sh` (src/cp = the program). ")
                .append("| test | GNU cp | cpx |\n|---|---|---|\n".isEmpty() ? "" : "\n\n| test | GNU cp 9.1 | cpx |\n|---|---|---|\n");
        for (var e : cpx.entrySet()) {
            md.append("| ").append(e.getKey()).append(" | ").append(gnu.getOrDefault(e.getKey(), "?")).append(" | ")
                    .append(e.getValue()).append(" |\n");
        }
        md.append('\n');
        for (var e : cpx.entrySet()) {
            if (!e.getValue().startsWith("FAIL") && !e.getValue().startsWith("ERROR")) {
                continue;
            }
            Path log = cpxLogs.resolve(e.getKey() + ".log");
            md.append("### ").append(e.getKey()).append(".sh: ").append(e.getValue()).append(" with cpx\n\n```\n")
                    .append(excerpt(log)).append("```\n\n");
        }
        return md.toString();
    }

    private static Map<String, String> summary(Path dir) throws IOException {
        Map<String, String> m = new TreeMap<>();
        Path f = dir.resolve("summary.txt");
        if (Files.exists(f)) {
            for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                String[] w = line.split(" ", 3);
                if (w.length >= 2) {
                    m.put(w[0], w[1] + (w[1].equals("SKIP") && w.length > 2 ? " (" + w[2].replaceFirst("^rc=\\S+ \\S+ ?", "") + ")" : ""));
                }
            }
        }
        return m;
    }

    /**
     * What a GNU test log shows of its failure: the diffs its {@code compare} printed, the
     * messages of the programs it ran, and the command before each {@code fail=1} (the logs are
     * {@code set -x} traces, whose lines start with {@code +}).
     */
    static String excerpt(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "(no log)\n";
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
        List<String> out = new ArrayList<>();
        java.util.regex.Pattern hunk = java.util.regex.Pattern.compile("^(@@|-|\\+(?![+ ])| ).*");
        java.util.regex.Pattern message = java.util.regex.Pattern.compile(".*\\b(cp|cpx|cmp|diff|cat|ls|stat|[a-z-]+\\.sh): .*");
        for (int i = 0; i < lines.size() && out.size() < 30; i++) {
            String l = lines.get(i);
            if (l.startsWith("--- ") && i + 1 < lines.size() && lines.get(i + 1).startsWith("+++ ")) {
                out.add(l);
                out.add(lines.get(++i));
                while (i + 1 < lines.size() && hunk.matcher(lines.get(i + 1)).matches() && out.size() < 30) {
                    out.add(lines.get(++i));
                }
            } else if (l.startsWith("+ fail=1") || l.startsWith("++ fail=1")) {
                int j = i - 1;
                while (j > 0 && !lines.get(j).startsWith("+ ")) {
                    j--;
                }
                out.add("[fail=1 after] " + lines.get(j));
            } else if (!l.startsWith("+") && message.matcher(l).matches() && !l.contains("Copyright")) {
                out.add(l);
            }
        }
        if (out.isEmpty()) {
            lines.stream().skip(Math.max(0, lines.size() - 15)).forEach(out::add);
        }
        return out.stream().map(l -> l.length() > 200 ? l.substring(0, 200) + "…" : l).collect(Collectors.joining("\n")) + "\n";
    }

    private static String s(Map<String, Object> r, String k) {
        Object v = r.get(k);
        return v == null ? "" : v.toString();
    }

    /** The one-level JSON objects {@link FailureLog} writes: string and integer values. */
    static Map<String, Object> parse(String line) {
        Map<String, Object> m = new LinkedHashMap<>();
        int[] i = {line.indexOf('{') + 1};
        while (true) {
            skipSpace(line, i);
            if (line.charAt(i[0]) == '}') {
                return m;
            }
            String key = string(line, i);
            skipSpace(line, i);
            i[0]++; // ':'
            skipSpace(line, i);
            Object value;
            if (line.charAt(i[0]) == '"') {
                value = string(line, i);
            } else {
                int start = i[0];
                while (i[0] < line.length() && "-0123456789".indexOf(line.charAt(i[0])) >= 0) {
                    i[0]++;
                }
                value = Integer.parseInt(line.substring(start, i[0]));
            }
            m.put(key, value);
            skipSpace(line, i);
            if (line.charAt(i[0]) == ',') {
                i[0]++;
            }
        }
    }

    private static void skipSpace(String s, int[] i) {
        while (Character.isWhitespace(s.charAt(i[0]))) {
            i[0]++;
        }
    }

    private static String string(String s, int[] i) {
        StringBuilder sb = new StringBuilder();
        i[0]++; // opening quote
        while (true) {
            char c = s.charAt(i[0]++);
            if (c == '"') {
                return sb.toString();
            }
            if (c == '\\') {
                char e = s.charAt(i[0]++);
                switch (e) {
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    case 'u' -> {
                        sb.append((char) Integer.parseInt(s.substring(i[0], i[0] + 4), 16));
                        i[0] += 4;
                    }
                    default -> sb.append(e);
                }
            } else {
                sb.append(c);
            }
        }
    }
}
