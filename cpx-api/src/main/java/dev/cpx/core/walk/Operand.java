package dev.cpx.core.walk;

import dev.cpx.core.fs.Stat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A directory operand being copied, and where its copy lies. When the copy is inside its own
 * source ({@code cp -r d d/sub}), GNU cp copies the source's entries in inode order until it meets
 * the copy, reports {@code cannot copy a directory, 'd', into itself, 'd/sub'}, and stops each
 * directory on the way down to the copy right there. cpx lists in the same order and stops at the
 * same places, so the result is the same.
 *
 * @param source the operand
 * @param sourceDev the device of the operand, where {@code -x} stays
 * @param target the copy being made
 * @param copy identity of the copy (device, inode)
 * @param chain identities of the source directories from the operand down to the copy's parent;
 *     empty when the copy is not inside the source
 */
record Operand(Path source, long sourceDev, Path target, long[] copy, List<long[]> chain) {

    /**
     * The operand {@code source} whose copy {@code target} has just been created, where it is now
     * ({@code at}: its staging name while it is made under one, else {@code target} itself).
     */
    static Operand of(Path source, Stat sourceStat, Path target, Path at) {
        try {
            Stat copy = Stat.stat(at);
            return new Operand(source, sourceStat.dev(), target, new long[] {copy.dev(), copy.ino()}, chainTo(sourceStat, at));
        } catch (IOException e) {
            return new Operand(source, sourceStat.dev(), target, new long[] {-1, -1}, List.of());
        }
    }

    private static List<long[]> chainTo(Stat sourceStat, Path target) {
        List<long[]> chain = new ArrayList<>();
        for (Path p = target.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
            Stat s;
            try {
                s = Stat.stat(p);
            } catch (IOException e) {
                return List.of();
            }
            chain.add(new long[] {s.dev(), s.ino()});
            if (s.sameFile(sourceStat)) {
                return List.copyOf(chain);
            }
        }
        return List.of();
    }

    /** Whether {@code st} is the copy itself. */
    boolean isCopy(Stat st) {
        return st.dev() == copy[0] && st.ino() == copy[1];
    }

    /** Whether {@code st} is a source directory on the way down to the copy. */
    boolean leadsToCopy(Stat st) {
        for (long[] id : chain) {
            if (st.dev() == id[0] && st.ino() == id[1]) {
                return true;
            }
        }
        return false;
    }
}
