package dev.cpx.cli.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code -u} re-runs onto an earlier copy, the way backups are refreshed ({@code cp -ru src dst/}):
 * GNU cp stats each source file and its copy and skips one whose copy is not older, without opening
 * the source (copy.c: the {@code x->update} check before {@code copy_reg}); cpx decides such a file
 * from its attributes read by name before it would open it. The scene's earlier copy holds every
 * case the rule meets: a copy as new as its source, an older one, one missing, a newer one, a
 * directory and a symbolic link where the source has a file, and a source the user cannot read
 * (unprivileged rows). Tree and file operands, with {@code -v}, backups, {@code -n}, {@code -i}.
 */
class UpdateTest {

    /** The source tree s and an earlier copy of it in t/s; times fixed by the harness, then moved by {@link #TIMES}. */
    static final String SCENE = """
            mkdir -p s/sub t/s/sub
            for f in a b c d f g; do echo "$f$f$f" > s/$f; done
            echo eee > s/sub/e
            echo hhh > s/sub/h
            echo A > t/s/a
            echo B > t/s/b
            mkdir t/s/d
            echo E > t/s/sub/e
            echo other > t/s/other
            ln -s other t/s/f
            echo G > t/s/g
            """;

    /** After the fixed times: t/s/b older than its source, t/s/sub/e newer; s/g unreadable (for the unprivileged user). */
    static final String TIMES = "old t/s/b\nnew t/s/sub/e\nchmod 0 s/g\n";

    static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (String opt : List.of("-ru", "-ruv", "-au", "-ru -b", "-ru --backup=numbered", "-run", "-ruf",
                "-ru --remove-destination", "-rud", "-ruL", "-Ru --preserve=timestamps")) {
            for (boolean unprivileged : List.of(false, true)) {
                rows.add(Row.cp("update-rerun", SCENE, opt, "s t/").post(TIMES).unprivileged(unprivileged)
                        .rule("copy.c: -u skips a file whose copy is not older, before opening it"));
            }
        }
        // -i asks about what -u does not skip, in the walk's order: the answers go to those files.
        rows.add(Row.cp("update-rerun", SCENE, "-rui", "s t/").post(TIMES).stdin("y\nn\ny\nn\ny\n")
                .rule("copy.c: -u before the -i question"));
        // File operands into the earlier copy's directory.
        for (String opt : List.of("-u", "-uv", "-u -b", "-un", "-ui")) {
            for (boolean unprivileged : List.of(false, true)) {
                Row row = Row.cp("update-operands", SCENE, opt, "s/a s/b s/c s/f s/g s/sub/e t/s/").post(TIMES)
                        .unprivileged(unprivileged).rule("copy.c: -u with file operands");
                rows.add(opt.contains("i") ? row.stdin("y\ny\ny\ny\ny\n") : row);
            }
        }
        return rows;
    }

    @TestFactory
    Stream<DynamicTest> updateReruns() {
        return Differential.tests(rows());
    }
}
