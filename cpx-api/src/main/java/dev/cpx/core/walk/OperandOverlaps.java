package dev.cpx.core.walk;

import java.nio.file.Path;
import java.util.ArrayList;
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
 * compare every pair. Used by one thread (the one registering operands, in their order).
 */
final class OperandOverlaps<T> {

    /** By each source path, and by each of its parents: the operands whose source it is, or lies above. */
    private final Map<Path, List<T>> sourceAt = new HashMap<>();
    private final Map<Path, List<T>> sourceBelow = new HashMap<>();
    private final Map<Path, List<T>> targetAt = new HashMap<>();
    private final Map<Path, List<T>> targetBelow = new HashMap<>();

    /** {@code path} made absolute and normalized, as the operands are compared. */
    static Path key(Path path) {
        return path.toAbsolutePath().normalize();
    }

    /**
     * The registered operands that an operand from {@code source} to {@code target} (both {@link #key}s)
     * may touch: its target related to their target or source, or its source to their target.
     */
    Set<T> touching(Path source, Path target) {
        Set<T> found = new LinkedHashSet<>();
        related(target, targetAt, targetBelow, found);
        related(target, sourceAt, sourceBelow, found);
        related(source, targetAt, targetBelow, found);
        return found;
    }

    /** Registers {@code task}, from {@code source} to {@code target} (both {@link #key}s). */
    void add(T task, Path source, Path target) {
        put(source, task, sourceAt, sourceBelow);
        put(target, task, targetAt, targetBelow);
    }

    /** The operands whose path is {@code path}, above it, or below it. */
    private static <T> void related(Path path, Map<Path, List<T>> at, Map<Path, List<T>> below,
            Set<T> found) {
        for (Path p = path; p != null; p = p.getParent()) {
            List<T> here = at.get(p);
            if (here != null) {
                found.addAll(here);
            }
        }
        List<T> under = below.get(path);
        if (under != null) {
            found.addAll(under);
        }
    }

    private static <T> void put(Path path, T task, Map<Path, List<T>> at, Map<Path, List<T>> below) {
        at.computeIfAbsent(path, p -> new ArrayList<>()).add(task);
        for (Path p = path.getParent(); p != null; p = p.getParent()) {
            below.computeIfAbsent(p, x -> new ArrayList<>()).add(task);
        }
    }
}
