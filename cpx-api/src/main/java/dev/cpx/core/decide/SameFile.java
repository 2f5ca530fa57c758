package dev.cpx.core.decide;

import dev.cpx.core.fs.Stat;

/**
 * Whether copying onto a destination that is, by some measure, the source itself is safe: GNU cp's
 * {@code same_file_ok}, as a function of the two stats, the options, and the few further facts it
 * asks for only when the first answer is not enough. The goal is never to lose the only copy of the
 * data (e.g. {@code cp -d symlink foo}, where {@code symlink -> foo}), while allowing what is
 * harmless (a file onto a symlink to it when the symlink is replaced).
 */
public final class SameFile {

    /** The answer. */
    public enum Verdict {
        /** The copy may go on. */
        OK,
        /** Nothing is to be done, successfully ({@code cp -l foo foo}: the link exists already). */
        NOTHING_TO_DO,
        /** Refused: {@code 'a' and 'b' are the same file}. */
        SAME_FILE
    }

    /** The options that matter here. */
    public record Options(boolean noDereference, boolean hardLink, boolean symbolicLink, boolean backup,
            boolean removeDestination) {
    }

    /** Further facts, asked for lazily; a stat that cannot be read is null. */
    public interface Facts {
        /** {@code lstat} of the source. */
        Stat sourceLstat();

        /** {@code lstat} of the destination. */
        Stat destinationLstat();

        /** {@code stat} (following links) of the source. */
        Stat sourceFollowed();

        /** {@code stat} (following links) of the destination. */
        Stat destinationFollowed();

        /** Whether source and destination are the same directory entry (same parent directory, same name). */
        boolean sameName();
    }

    private SameFile() {
    }

    /**
     * @param src the source's stat as the copy sees it (an {@code lstat} when links are not followed)
     * @param dst the destination's stat as the copy sees it
     */
    public static Verdict judge(Stat src, Stat dst, Options o, Facts facts) {
        boolean same = src.sameFile(dst);
        if (same && o.hardLink()) {
            return Verdict.NOTHING_TO_DO;
        }
        Stat srcLink;
        Stat dstLink;
        boolean sameLink;
        if (o.noDereference()) {
            sameLink = same;
            if (src.isSymlink() && dst.isSymlink()) {
                boolean sameName = facts.sameName();
                if (!sameName) {
                    if (o.backup()) {
                        return Verdict.OK;
                    }
                    if (sameLink) {
                        // Two symlinks that are hard links of each other: nothing to do.
                        return Verdict.NOTHING_TO_DO;
                    }
                }
                return sameName ? Verdict.SAME_FILE : Verdict.OK;
            }
            srcLink = src;
            dstLink = dst;
        } else {
            if (!same) {
                return Verdict.OK;
            }
            dstLink = facts.destinationLstat();
            srcLink = facts.sourceLstat();
            if (dstLink == null || srcLink == null) {
                return Verdict.OK;
            }
            sameLink = srcLink.sameFile(dstLink);
            if (srcLink.isSymlink() && dstLink.isSymlink() && o.removeDestination()) {
                return Verdict.OK;
            }
        }
        if (o.backup()) {
            if (!sameLink) {
                // Backing up a regular destination that a followed source symlink points to would leave the
                // source dangling.
                if (!o.noDereference() && srcLink.isSymlink() && !dstLink.isSymlink()) {
                    return Verdict.SAME_FILE;
                }
                return Verdict.OK;
            }
            return facts.sameName() ? Verdict.SAME_FILE : Verdict.OK;
        }
        if (o.removeDestination()) {
            if (dstLink.isSymlink()) {
                return Verdict.OK;
            }
            if (sameLink && dstLink.nlink() > 1 && !facts.sameName()) {
                return Verdict.OK;
            }
        }
        if (!srcLink.isSymlink() && !dstLink.isSymlink()) {
            if (!srcLink.sameFile(dstLink)) {
                return Verdict.OK;
            }
            if (o.hardLink()) {
                return Verdict.NOTHING_TO_DO;
            }
        }
        if (o.symbolicLink() && dstLink.isSymlink()) {
            return Verdict.OK;
        }
        if (o.noDereference()) {
            Stat s = srcLink.isSymlink() ? facts.sourceFollowed() : srcLink;
            Stat d = dstLink.isSymlink() ? facts.destinationFollowed() : dstLink;
            if (s == null || d == null || !s.sameFile(d)) {
                return Verdict.OK;
            }
            if (o.hardLink()) {
                return dstLink.isSymlink() ? Verdict.OK : Verdict.NOTHING_TO_DO;
            }
        }
        return Verdict.SAME_FILE;
    }
}
