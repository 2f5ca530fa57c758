package dev.cpx.core.walk;

import dev.cpx.spi.support.PathBytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The operands registered so far, indexed by their source and target paths (made absolute, as
 * written, normalized), to find the earlier ones a new operand may touch: one of whose paths is the
 * other's, or lies below it ({@link OperandTask#after}). A look-up walks the new paths' parents
 * and reads the entries under them, so {@code cpx *.jpg dir/} with many thousand operands does not
 * compare every pair. A parent is a prefix of the path's bytes, not a {@link Path} made for it
 * (three objects a level, several levels for each of three look-ups and two registrations per
 * operand). Used by one thread (the one registering operands, in their order).
 */
final class OperandOverlaps<T> {

    /** By each source path, and by each of its parents: the operands whose source it is, or lies above. */
    private final Map<Prefix, List<T>> sourceAt = new HashMap<>();
    private final Map<Prefix, List<T>> sourceBelow = new HashMap<>();
    private final Map<Prefix, List<T>> targetAt = new HashMap<>();
    private final Map<Prefix, List<T>> targetBelow = new HashMap<>();
    /** The key of every look-up, set anew each time. */
    private final Prefix probe = new Prefix();

    /** {@code path} made absolute and normalized, as the operands are compared. */
    static Path key(Path path) {
        return path.toAbsolutePath().normalize();
    }

    /**
     * The registered operands that an operand from {@code source} to {@code target} (both {@link #key}s)
     * may touch: its target related to their target or source, or its source to their target.
     */
    Set<T> touching(Path source, Path target) {
        byte[] t = PathBytes.of(target);
        Set<T> found = related(t, targetAt, targetBelow, null);
        found = related(t, sourceAt, sourceBelow, found);
        found = related(PathBytes.of(source), targetAt, targetBelow, found);
        return found == null ? Set.of() : found;
    }

    /** Registers {@code task}, from {@code source} to {@code target} (both {@link #key}s). */
    void add(T task, Path source, Path target) {
        put(PathBytes.of(source), task, sourceAt, sourceBelow);
        put(PathBytes.of(target), task, targetAt, targetBelow);
    }

    /** Adds to {@code found} (made when first needed) the operands whose path is {@code path}, above it, or below it. */
    private Set<T> related(byte[] path, Map<Prefix, List<T>> at, Map<Prefix, List<T>> below, Set<T> found) {
        for (int length = path.length; length > 0; length = parent(path, length)) {
            found = addAll(found, at.get(probe.of(path, length)));
        }
        return addAll(found, below.get(probe.of(path, path.length)));
    }

    private static <T> Set<T> addAll(Set<T> found, List<T> more) {
        if (more == null) {
            return found;
        }
        Set<T> to = found == null ? new LinkedHashSet<>() : found;
        to.addAll(more);
        return to;
    }

    private void put(byte[] path, T task, Map<Prefix, List<T>> at, Map<Prefix, List<T>> below) {
        listAt(at, path, path.length).add(task);
        for (int length = parent(path, path.length); length > 0; length = parent(path, length)) {
            listAt(below, path, length).add(task);
        }
    }

    private List<T> listAt(Map<Prefix, List<T>> map, byte[] path, int length) {
        List<T> list = map.get(probe.of(path, length));
        if (list == null) {
            list = new ArrayList<>(1);
            map.put(new Prefix().of(path, length), list);
        }
        return list;
    }

    /**
     * The length of the parent of {@code path}'s first {@code length} bytes (an absolute, normalized
     * path: no trailing, doubled, {@code .} or {@code ..} names); 0 for {@code /}, which has none.
     */
    static int parent(byte[] path, int length) {
        if (length <= 1) {
            return 0;
        }
        int i = length - 1;
        while (i > 0 && path[i] != '/') {
            i--;
        }
        return i == 0 ? 1 : i;
    }

    /** The first {@link #length} bytes of a path: the path itself or one of its parents. */
    private static final class Prefix {
        private byte[] bytes;
        private int length;
        private int hash;

        Prefix of(byte[] path, int length) {
            int h = 1;
            for (int i = 0; i < length; i++) {
                h = 31 * h + path[i];
            }
            this.bytes = path;
            this.length = length;
            this.hash = h;
            return this;
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Prefix p && p.hash == hash && p.length == length
                    && Arrays.equals(p.bytes, 0, length, bytes, 0, length);
        }
    }
}
