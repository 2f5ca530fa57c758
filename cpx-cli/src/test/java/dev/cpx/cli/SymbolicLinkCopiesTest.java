package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code -s} (symbolic links instead of copies) of files with several names, each engine against GNU
 * cp 9.1 run beside it on a twin of the same tree, by absolute paths (a relative source may only be linked into the
 * working directory, which the generated differential suite's twin scenes cannot give): where GNU
 * remembers an inode ({@code --preserve=links}, {@code -a}), a later name of it becomes a hard link
 * to the first one's symbolic link, or, where links are followed ({@code -L}, {@code -H} on the
 * command line, and without {@code -r} by default), to the source file itself. The same tree (link
 * targets within the tree, link counts, which entries share an inode), exit status and messages.
 */
class SymbolicLinkCopiesTest {

    @TempDir
    static Path dir;

    /**
     * A tree of its own for each case (a case that follows links adds names to the source's inode):
     * f and g one inode, another file, and a symbolic link to a file outside the tree. All in one
     * directory, listed in inode order by both tools, so which of f and g is met first does not
     * depend on a walk's order. (A link to f would make a third name of its inode where links are
     * followed, met first or not by the inode number of the link itself, which differs between the
     * twin trees.)
     */
    private static Path tree(String name) throws IOException {
        Path src = Files.createDirectories(dir.resolve(name).resolve("src"));
        Files.writeString(src.resolve("f"), "f\n");
        Files.createLink(src.resolve("g"), src.resolve("f"));
        Files.writeString(src.resolve("h"), "h\n");
        Files.writeString(dir.resolve(name).resolve("outside"), "o\n");
        Files.createSymbolicLink(src.resolve("l"), Path.of("../outside"));
        return src;
    }

    @ParameterizedTest(name = "[{0}] {1} engine={2}")
    @CsvSource({
        "-sR, tree, native", "-sR, tree, nio",
        "-sR --preserve=links, tree, native", "-sR --preserve=links, tree, nio",
        "-sa, tree, native", "-sa, tree, nio",
        "-sRL --preserve=links, tree, native", "-sRL --preserve=links, tree, nio",
        "-sRH --preserve=links, tree, native",
        "-sR -u, tree, native",
        "-s --preserve=links, names, native", "-s --preserve=links, names, nio",
        "-sP --preserve=links, names, native",
        "-sH --preserve=links, names, native",
        "-s, names, native",
        "-sRL --preserve=links, new, native", "-sRL --preserve=links, new, nio",
        "-sa, new, native",
    })
    void linksNamesOfOneInodeAsGnuCpDoes(String options, String operands, String engine) throws Exception {
        String name = (options + "-" + operands + "-" + engine).replace(' ', '_');
        Path gnuOut = dir.resolve("gnu" + name);
        Path cpxOut = dir.resolve("cpx" + name);
        if (!operands.equals("new")) {
            Files.createDirectories(gnuOut);
            Files.createDirectories(cpxOut);
        }
        Cli.Result gnu = Cli.gnu(dir, args(options, operands, tree("gnu-src" + name), gnuOut));
        Cli.Result cpx = Cli.cpx(dir, args("--engine=" + engine + " " + options, operands, tree("cpx-src" + name), cpxOut));
        assertEquals(gnu.exit(), cpx.exit(), () -> "GNU cp: " + gnu + "\ncpx: " + cpx);
        assertEquals(gnu.err().replace("cp: ", "cpx: ").replace(gnuOut.toString(), "OUT"),
                cpx.err().replace(cpxOut.toString(), "OUT"), cpx::toString);
        // The links point into each tool's own source: compared by where they point within it.
        Map<String, String> expected = new TreeMap<>(Trees.describe(gnuOut, Detail.LINKS));
        Map<String, String> actual = new TreeMap<>(Trees.describe(cpxOut, Detail.LINKS));
        expected.replaceAll((k, v) -> v.replace(dir.resolve("gnu-src" + name).toString(), "SRC"));
        actual.replaceAll((k, v) -> v.replace(dir.resolve("cpx-src" + name).toString(), "SRC"));
        assertEquals(expected, actual);
    }

    /**
     * {@code options}, then the absolute sources ({@code tree}: the directory {@code src}, copied into
     * {@code out}; {@code new}: the same, {@code out} made its copy; {@code names}: its entries), then
     * {@code out}.
     */
    private static String[] args(String options, String operands, Path src, Path out) {
        List<String> all = new ArrayList<>(List.of(options.trim().split(" +")));
        if (!operands.equals("names")) {
            all.add(src.toString());
        } else {
            for (String n : List.of("f", "g", "l", "h")) {
                all.add(src.resolve(n).toString());
            }
        }
        all.add(out.toString());
        return all.toArray(String[]::new);
    }
}
