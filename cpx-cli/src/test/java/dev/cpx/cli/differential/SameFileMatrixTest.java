package dev.cpx.cli.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * When are a source and a destination "the same file"? GNU cp decides in copy.c's
 * {@code same_file_ok}, from whether each is a symlink, whether they share an inode through links,
 * whether the same directory entry is named twice, and the options: dereferencing ({@code -d}),
 * forcing ({@code -f}), removing first ({@code --remove-destination}), backups ({@code -b}, here
 * numbered through {@code VERSION_CONTROL=numbered}), hard links ({@code -l}) and symlinks
 * ({@code -s}). Getting it wrong loses data: {@code cp -d symlink foo} must refuse, or foo becomes a
 * symlink to itself; {@code cp -bfl foo foo} must keep foo, linked to its backup {@code foo.~1~}.
 *
 * <p>The matrix: every pair of names drawn from a regular file {@code foo}, a symlink to it, two
 * symlinks to it ({@code sl1}, {@code sl2}), a hard link of it, a hard link of a symlink to it
 * ({@code hlsl}), and foo itself, with each of the options GNU's own same-file test uses; on one
 * file system, and across two (a small tmpfs mounted in the scene: the file on it, the links
 * beside it on the other, so hard links fail with EXDEV and backups cross file systems).
 */
class SameFileMatrixTest {

    static final List<String> PAIRS = List.of("foo symlink", "symlink foo", "foo foo", "sl1 sl2", "foo hardlink", "hlsl sl2");

    static final List<String> OPTIONS = List.of("", "-d", "-f", "-df", "--remove-destination", "-b", "-bd", "-bf", "-bdf",
            "-l", "-dl", "-fl", "-dfl", "-bl", "-bdl", "-bfl", "-bdfl", "-s", "-sf");

    /** The scene for a pair on one file system: foo, and the links the pair names. */
    static String oneFs(String pair) {
        StringBuilder sb = new StringBuilder("echo XYZ > foo\n");
        if (pair.contains("symlink")) {
            sb.append("ln -s foo symlink\n");
        }
        if (pair.contains("hardlink")) {
            sb.append("ln foo hardlink\n");
        }
        if (pair.contains("sl1")) {
            sb.append("ln -s foo sl1\n");
        }
        if (pair.contains("sl2")) {
            sb.append("ln -s foo sl2\n");
        }
        if (pair.contains("hlsl")) {
            sb.append("ln sl2 hlsl\n");
        }
        return sb.toString();
    }

    /**
     * Across two file systems: foo on the tmpfs {@code m}, the symlinks on the scene's own file
     * system pointing into it (sl2 on the tmpfs, so sl1 and sl2 are apart). Only the pairs whose
     * names can live on two file systems: a file and its hard links cannot.
     */
    static List<String[]> twoFs() {
        return List.of(
                new String[] {"m/foo symlink", "mnt m\necho XYZ > m/foo\nln -s m/foo symlink\n"},
                new String[] {"symlink m/foo", "mnt m\necho XYZ > m/foo\nln -s m/foo symlink\n"},
                new String[] {"sl1 m/sl2", "mnt m\necho XYZ > m/foo\nln -s m/foo sl1\nln -s foo m/sl2\n"},
                new String[] {"hlsl sl2", "mnt m\necho XYZ > m/foo\nln -s m/foo sl2\nln sl2 hlsl\n"});
    }

    static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (String pair : PAIRS) {
            for (String options : OPTIONS) {
                rows.add(row(pair, options, oneFs(pair)).variant("one fs"));
            }
        }
        for (String[] pair : twoFs()) {
            for (String options : OPTIONS) {
                rows.add(row(pair[0], options, pair[1]).variant("two fs").mounts());
            }
        }
        return rows;
    }

    private static Row row(String pair, String options, String setup) {
        List<String> args = new ArrayList<>();
        if (!options.isEmpty()) {
            args.add(options);
        }
        args.addAll(List.of(pair.split(" ")));
        return Row.of("same-file", setup, args).rule("same_file_ok").env("VERSION_CONTROL", "numbered");
    }

    @TestFactory
    Stream<DynamicTest> sameFile() {
        return Differential.tests(rows());
    }
}
