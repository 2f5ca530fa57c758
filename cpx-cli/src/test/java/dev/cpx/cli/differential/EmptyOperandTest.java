package dev.cpx.cli.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Empty operands ({@code cp "$src" "$dest"} with a variable unset): the kernel resolves an empty
 * path to nothing ({@code ENOENT}), so GNU cp says "cannot stat ''" of an empty source, "cannot
 * create regular file ''" (directory, symbolic link, fifo, hard link) of an empty destination,
 * "target ''" and "target directory ''" of an empty target directory. Java's empty path is the
 * working directory instead: a copy into it would overwrite files there. Every row runs in a scene
 * holding files a wrong reading would overwrite ({@code y}, {@code in}) or merge into. Also what
 * GNU reports first where such a copy's source is unreadable, for {@code ""} and {@code nodir/}.
 */
class EmptyOperandTest {

    static final String SCENE = """
            echo old > y
            echo old > in
            mkdir -p d src/sub
            echo new > src/y
            echo new > src/in
            echo deep > src/sub/f
            ln -s y l
            mkfifo f
            """;

    static List<Row> emptyDestination() {
        List<Row> rows = new ArrayList<>();
        List<String> sources = List.of("y", "src/y", "d", "src", "l", "f");
        List<String> options = List.of("", "-r", "-a", "-P", "-l", "-s", "-n", "-i", "-u", "-f", "--remove-destination", "-b",
                "--parents", "--attributes-only", "-T", "-rT", "-x", "-v");
        for (String source : sources) {
            for (String option : options) {
                if (source.equals("f") && !List.of("-r", "-a", "-rT").contains(option)) {
                    continue; // a FIFO read as data: GNU cp waits for a writer (and so does cpx)
                }
                rows.add(row(option, source, ""));
            }
        }
        for (String option : List.of("", "-r", "-v")) {
            rows.add(row(option, "y", "src/y", ""));
            rows.add(row(option, "-t", "", "y"));
            rows.add(row(option, "-t", "", "src"));
        }
        return rows;
    }

    static List<Row> emptySource() {
        List<Row> rows = new ArrayList<>();
        List<String> options = List.of("", "-r", "-a", "-s", "-l", "--parents", "-T", "-u", "-n", "-v");
        for (String option : options) {
            for (String target : List.of("d", "z", "")) {
                rows.add(row(option, "", target));
            }
            rows.add(row(option, "src/y", "", "d"));
            rows.add(row(option, "", "src/in", "d/"));
            rows.add(row(option, "-t", "d", ""));
        }
        return rows;
    }

    /**
     * An unreadable source copied where its copy cannot be made ({@code ""}, {@code nodir/}): GNU opens
     * the source first (copy_reg), so the failure to read it is what it reports, after its {@code -v}
     * line; a link or special file is not opened.
     */
    static List<Row> unreadableSource() {
        List<Row> rows = new ArrayList<>();
        for (String target : List.of("", "nodir/", "y/")) {
            for (String option : List.of("", "-v", "--attributes-only", "-T", "-n", "-s", "-l", "-u")) {
                rows.add(row(option, "u", target).variant("u unreadable").unprivileged().post("echo secret > u\nchmod 0 u"));
            }
        }
        return rows;
    }

    private static Row row(String option, String... operands) {
        List<String> args = new ArrayList<>();
        if (!option.isEmpty()) {
            args.add(option);
        }
        args.addAll(List.of(operands));
        return Row.of("empty-operand", SCENE, args).rule("the kernel: an empty path names nothing (ENOENT)");
    }

    @TestFactory
    Stream<DynamicTest> anEmptyDestinationIsNoDirectory() {
        return Differential.tests(emptyDestination());
    }

    @TestFactory
    Stream<DynamicTest> anUnreadableSourceIsReportedFirst() {
        return Differential.tests(unreadableSource());
    }

    @TestFactory
    Stream<DynamicTest> anEmptySourceIsNothing() {
        return Differential.tests(emptySource());
    }
}
