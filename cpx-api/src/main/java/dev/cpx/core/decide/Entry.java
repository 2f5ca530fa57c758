package dev.cpx.core.decide;

import dev.cpx.api.EntryKind;
import dev.cpx.core.fs.Stat;
import java.nio.file.Path;

/**
 * One entry on its way through the scheduler: where it is read, where its copy goes, the source's
 * attributes as read once, and what is known of the destination before looking at it.
 *
 * @param source the source, as named (a command-line operand keeps its trailing slashes)
 * @param target the copy's name
 * @param stat the source's attributes ({@code lstat} or {@code stat}, as the dereference mode says)
 * @param placement where the destination comes from
 */
public record Entry(Path source, Path target, Stat stat, Placement placement) {

    /** What the source is, for outcomes. */
    public EntryKind kind() {
        if (stat.isSymlink()) {
            return EntryKind.SYMLINK;
        }
        if (stat.isSpecial()) {
            return EntryKind.SPECIAL;
        }
        return stat.isDirectory() ? EntryKind.DIRECTORY : EntryKind.FILE;
    }

    /** Whether it is a command-line operand. */
    public boolean operand() {
        return placement == Placement.OPERAND;
    }
}
