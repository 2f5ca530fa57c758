package dev.cpx.cli.differential;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code cp [OPTION] s d} for every kind of source and every kind of destination: source ∈ {file,
 * directory, symlink to a file, symlink to a directory, dangling symlink, FIFO}, destination ∈
 * {absent, file, directory, symlink to a file, symlink to a directory, dangling symlink, FIFO},
 * option ∈ {none, -r, -a, -f, -n, -u, -b, --remove-destination, -l, -s, -T, -L, -P, -H}.
 * Existing destinations are older than the source (so {@code -u} copies). A FIFO source has a
 * writer and a FIFO destination a reader, each released if the tool never opens it.
 *
 * <p>The full product is 588 rows (1,176 cpx runs); by default the suite runs a covering subset
 * generated from it, greedily, so that every pair of values of any two factors (source and
 * destination, source and option, destination and option) appears in some row — about a fifth of
 * the product. {@code -Dcpx.matrix.full=true} runs the whole product.
 */
class DestinationKindMatrixTest {

    static final Map<String, String> SOURCES = new LinkedHashMap<>();
    static final Map<String, String> DESTINATIONS = new LinkedHashMap<>();
    static final List<String> OPTIONS = List.of("", "-r", "-a", "-f", "-n", "-u", "-b", "--remove-destination", "-l", "-s", "-T", "-L",
            "-P", "-H");

    static {
        SOURCES.put("file", "echo source > s\n");
        SOURCES.put("dir", "mkdir s\necho in > s/f\n");
        SOURCES.put("symlink to file", "echo target > st\nln -s st s\n");
        SOURCES.put("symlink to dir", "mkdir sd\necho in > sd/f\nln -s sd s\n");
        SOURCES.put("dangling symlink", "ln -s nowhere s\n");
        SOURCES.put("fifo", "mkfifo s\n");
        DESTINATIONS.put("absent", "");
        DESTINATIONS.put("file", "echo old destination > d\n");
        DESTINATIONS.put("dir", "mkdir d\necho keep > d/k\n");
        DESTINATIONS.put("symlink to file", "echo old target > dt\nln -s dt d\n");
        DESTINATIONS.put("symlink to dir", "mkdir dd\necho keep > dd/k\nln -s dd d\n");
        DESTINATIONS.put("dangling symlink", "ln -s gone d\n");
        DESTINATIONS.put("fifo", "mkfifo d\n");
    }

    /**
     * The wrapper: a writer on a FIFO source and a reader on a FIFO destination (waiting on it before the
     * command starts), each released after the command if it is still waiting.
     */
    static String body(boolean fifoSource, boolean fifoDestination) {
        StringBuilder sb = new StringBuilder("umask 022\n");
        if (fifoSource) {
            sb.append("(echo fifo data) > s & w=$!\n");
        }
        if (fifoDestination) {
            // The reader is waiting in open() on the FIFO (wchan wait_for_partner) before the command starts: else
            // whether it opens the FIFO or what the copy made of d races the copy (a fast GNU cp can win it).
            sb.append("cat d > out & r=$!\n");
            sb.append("for i in $(seq 100); do kill -0 $r 2>/dev/null || break; ")
                    .append("[ \"$(cat /proc/$r/wchan 2>/dev/null)\" = wait_for_partner ] && break; sleep 0.02; done\n");
        }
        sb.append("timeout 20 \"$@\"; rc=$?\n");
        if (fifoSource) {
            sb.append("if kill -0 $w 2>/dev/null; then timeout 2 cat s > /dev/null; kill $w 2>/dev/null; fi\nwait $w\n");
        }
        if (fifoDestination) {
            sb.append("for i in 1 2 3 4 5; do kill -0 $r 2>/dev/null || break; sleep 0.1; done\n");
            sb.append("if kill -0 $r 2>/dev/null; then [ -p d ] && timeout 1 sh -c ': > d' 2>/dev/null; kill $r 2>/dev/null; fi\n");
            sb.append("wait $r\n");
        }
        sb.append("exit $rc\n");
        return sb.toString();
    }

    record Cell(String source, String destination, String option) {
    }

    /** Every cell of the product, or a subset covering every pair of factor values (greedy, deterministic). */
    static List<Cell> cells(boolean full) {
        List<Cell> all = new ArrayList<>();
        for (String s : SOURCES.keySet()) {
            for (String d : DESTINATIONS.keySet()) {
                for (String o : OPTIONS) {
                    all.add(new Cell(s, d, o));
                }
            }
        }
        if (full) {
            return all;
        }
        Set<List<String>> uncovered = new HashSet<>();
        for (Cell c : all) {
            uncovered.addAll(pairs(c));
        }
        List<Cell> chosen = new ArrayList<>();
        while (!uncovered.isEmpty()) {
            Cell best = null;
            int bestGain = 0;
            for (Cell c : all) {
                int gain = 0;
                for (List<String> p : pairs(c)) {
                    if (uncovered.contains(p)) {
                        gain++;
                    }
                }
                if (gain > bestGain) {
                    best = c;
                    bestGain = gain;
                }
            }
            chosen.add(best);
            uncovered.removeAll(pairs(best));
        }
        return chosen;
    }

    private static List<List<String>> pairs(Cell c) {
        return List.of(List.of("sd", c.source(), c.destination()), List.of("so", c.source(), c.option()),
                List.of("do", c.destination(), c.option()));
    }

    static List<Row> rows() {
        return rows("dest-kind", "", "s d");
    }

    /**
     * The same matrix with the destination written {@code d/} and {@code -v} added: a non-directory is
     * never made there, and GNU reports it by what {@code d/} is (a directory: "cannot overwrite
     * directory"; a file: "cannot stat"; nothing: the {@code -v} line, then the failure to make the
     * link, FIFO or file), a directory's copy fails where {@code d} is a dangling link.
     */
    static List<Row> slashedRows() {
        return rows("dest-kind-slashed", " -v", "s d/");
    }

    /**
     * {@code d/} where {@code d} is a dangling link, with the options that make GNU remove the name to
     * try a link again ({@code -f}; {@code -i} for {@code -l}): that removal's error is the one reported.
     */
    static List<Row> slashedRetryRows() {
        List<Row> rows = new ArrayList<>();
        for (String source : List.of("file", "symlink to file", "dangling symlink", "fifo")) {
            for (String option : List.of("-f", "-i", "-fi", "--remove-destination", "-lf", "-li", "-rf")) {
                if (source.equals("fifo") && !option.equals("-rf")) {
                    continue;
                }
                rows.add(Row.cp("dest-kind-slashed", SOURCES.get(source) + DESTINATIONS.get("dangling symlink"), option + " -v", "s d/")
                        .variant(source + " onto dangling symlink").rule("copy.c: copy_internal by source and destination kind"));
            }
        }
        return rows;
    }

    /** A non-directory onto a directory written {@code d/} with {@code -T}: GNU asks first with {@code -i}, then refuses. */
    static List<Row> slashedPromptRows() {
        List<Row> rows = new ArrayList<>();
        for (String source : List.of("file", "symlink to file")) {
            for (String destination : List.of("dir", "symlink to dir")) {
                for (String option : List.of("-iT", "-fiT", "-riT")) {
                    for (String answer : List.of("y", "n")) {
                        rows.add(Row.cp("dest-kind-slashed", SOURCES.get(source) + DESTINATIONS.get(destination), option, "s d/")
                                .stdin(answer + "\n").variant(source + " onto " + destination + ", answered " + answer)
                                .rule("copy.c: copy_internal asks before the type check"));
                    }
                }
            }
        }
        return rows;
    }

    private static List<Row> rows(String group, String extraOption, String operands) {
        List<Row> rows = new ArrayList<>();
        for (Cell c : cells(Boolean.getBoolean("cpx.matrix.full"))) {
            boolean fifoSource = c.source().equals("fifo");
            boolean fifoDestination = c.destination().equals("fifo");
            Row row = Row.cp(group, SOURCES.get(c.source()) + DESTINATIONS.get(c.destination()), c.option() + extraOption, operands)
                    .variant(c.source() + " onto " + (c.destination().equals("absent") ? "nothing" : c.destination()))
                    .post(c.destination().equals("absent") ? "" : "old d\n[ -e dt ] && old dt || true\n[ -e dd ] && old dd || true")
                    .rule("copy.c: copy_internal by source and destination kind");
            if (fifoSource || fifoDestination) {
                row.wrapped(fifoSource && fifoDestination ? "writer on s, reader on d" : fifoSource ? "writer on s" : "reader on d",
                        body(fifoSource, fifoDestination)).waits();
                if (fifoSource) {
                    // Whether the writer gets to write (the FIFO's time) races a copy that fails before reading.
                    row.racing("s");
                }
                if (fifoDestination && (c.option().contains("-b") || c.option().contains("--remove-destination"))) {
                    // The FIFO is replaced: whether the reader opened it, or the new file, races the copy.
                    row.racing("out");
                }
            }
            rows.add(row);
        }
        return rows;
    }

    @TestFactory
    Stream<DynamicTest> destinationKinds() {
        return Differential.tests(rows());
    }

    @TestFactory
    Stream<DynamicTest> destinationKindsWrittenWithASlash() {
        return Differential.tests(slashedRows());
    }

    @TestFactory
    Stream<DynamicTest> slashedDirectoryAskedAboutFirst() {
        return Differential.tests(slashedPromptRows());
    }

    @TestFactory
    Stream<DynamicTest> slashedDanglingLinkWhereGnuTriesAgain() {
        return Differential.tests(slashedRetryRows());
    }
}
