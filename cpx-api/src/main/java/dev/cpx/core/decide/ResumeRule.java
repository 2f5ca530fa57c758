package dev.cpx.core.decide;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyOptions;
import dev.cpx.core.fs.Stat;
import java.util.function.BooleanSupplier;

/**
 * {@code --resume}: whether what is at the destination is already the complete copy. A regular
 * file with the source's size and modification time is (without preserved times, one at least as
 * new as the source); a link with the same target text, a special file of the same kind and
 * device, too, once they have the attributes that are preserved. A file cpx creates only gets its
 * final name once complete, so only a file overwritten in place can be partial, and then its size
 * or time differs.
 */
public final class ResumeRule {

    private ResumeRule() {
    }

    /**
     * @param sameLinkText asked only for two symlinks: whether their targets read the same
     */
    public static boolean complete(Stat source, Stat existing, CopyOptions o, BooleanSupplier sameLinkText) {
        if (source.isSymlink() && existing.isSymlink()) {
            return sameLinkText.getAsBoolean() && attributesApplied(source, existing, o);
        }
        if (source.isSpecial()) {
            return existing.type() == source.type() && existing.rdev() == source.rdev() && attributesApplied(source, existing, o);
        }
        if (!source.isRegular() || !existing.isRegular() || existing.size() != source.size()) {
            return false;
        }
        int c = existing.mtime().compareTo(source.mtime());
        return o.preserves(Attribute.TIMESTAMPS) ? c == 0 : c >= 0;
    }

    /**
     * Whether a link or special file, made at once under its name, also got the attributes that
     * are preserved: a copy killed in between leaves it with the time of its making.
     */
    private static boolean attributesApplied(Stat source, Stat existing, CopyOptions o) {
        if (o.preserves(Attribute.TIMESTAMPS) && !existing.mtime().equals(source.mtime())) {
            return false;
        }
        return !(o.preserves(Attribute.MODE) && !source.isSymlink() && (existing.mode() & 07777) != (source.mode() & 07777));
    }
}
