package dev.cpx.core.walk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which earlier operands a new one may touch: its target the same as, above or below their target or
 * source, or its source the same as, above or below their target. A table of cases, then the index
 * against comparing every pair on generated paths.
 */
class OperandOverlapsTest {

    /** Earlier operands: 0 = {@code a/x -> dir/x}, 1 = {@code b/y -> dir/y}, 2 = {@code c -> other}. */
    private static OperandOverlaps<Integer> earlier() {
        OperandOverlaps<Integer> o = new OperandOverlaps<>();
        o.add(0, key("a/x"), key("dir/x"));
        o.add(1, key("b/y"), key("dir/y"));
        o.add(2, key("c"), key("other"));
        return o;
    }

    @ParameterizedTest(name = "{0} -> {1}: {2}")
    @CsvSource(delimiter = '|', value = {
        "b/x | dir/x | 0",          // the same target: cp -r a/x b/x dir/
        "e | dir/x/in | 0",         // a target inside an earlier target
        "e | dir | 0 1",            // a target above two earlier targets
        "e | a | 0",                // a target above an earlier source
        "e | a/x/deeper | 0",       // a target inside an earlier source
        "dir/y/z | f | 1",          // a source inside an earlier target
        "dir | f | 0 1",            // a source above earlier targets
        "c/in | f | ''",            // a source inside an earlier source: both only read
        "e | dir/xy | ''",          // a name that only begins like an earlier one
        "e | other2 | ''",
        "other/../c | g | ''",      // normalized: the source is c, only read twice
        "h | dir/./y | 1",          // normalized: dir/y
    })
    void findsTheEarlierOperandsANewOneMayTouch(String source, String target, String expected) {
        Set<Integer> want = new LinkedHashSet<>();
        for (String n : expected.trim().split(" +")) {
            if (!n.isEmpty()) {
                want.add(Integer.parseInt(n));
            }
        }
        assertEquals(want, earlier().touching(key(source), key(target)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({"/, ''", "/a, /", "/a/b, /a", "/ab/cd/e, /ab/cd", "/ab/cd, /ab"})
    void aParentIsThePathsBytesUpToItsLastSlash(String path, String parent) {
        byte[] bytes = path.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertEquals(parent.length(), OperandOverlaps.parent(bytes, bytes.length));
        assertEquals(Path.of(path).getParent() == null ? "" : Path.of(path).getParent().toString(), parent);
    }

    @Test
    void findsWhatComparingEveryPairFinds() {
        Random random = new Random(7);
        String[] names = {"a", "b", "ab", "a.b", "..", "."};
        for (int round = 0; round < 200; round++) {
            OperandOverlaps<Integer> index = new OperandOverlaps<>();
            List<Path[]> registered = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                Path source = key(randomPath(random, names));
                Path target = key(randomPath(random, names));
                Set<Integer> pairwise = new LinkedHashSet<>();
                for (int e = 0; e < registered.size(); e++) {
                    Path[] other = registered.get(e);
                    if (related(target, other[1]) || related(target, other[0]) || related(source, other[1])) {
                        pairwise.add(e);
                    }
                }
                assertEquals(pairwise, index.touching(source, target),
                        () -> source + " -> " + target + " after " + registered.stream().map(p -> p[0] + " -> " + p[1]).toList());
                index.add(i, source, target);
                registered.add(new Path[] {source, target});
            }
        }
    }

    private static boolean related(Path a, Path b) {
        return a.startsWith(b) || b.startsWith(a);
    }

    private static String randomPath(Random random, String[] names) {
        StringBuilder sb = new StringBuilder(random.nextBoolean() ? "/tmp" : "w");
        int depth = 1 + random.nextInt(3);
        for (int i = 0; i < depth; i++) {
            sb.append('/').append(names[random.nextInt(names.length)]);
        }
        return sb.toString();
    }

    private static Path key(String path) {
        return OperandOverlaps.key(Path.of(path));
    }
}
