package dev.cpx.core.finish;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.Diagnostic;
import dev.cpx.core.fs.Effects;
import dev.cpx.core.fs.NewEntries;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.run.Outcomes;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;

/**
 * Gives a copy the attributes the options preserve, in GNU cp's order: times, then ownership,
 * then extended attributes, then mode (changing the owner clears set-uid, set-gid and
 * {@code security.capability}, so those come after it); what the copy was made with already is not set
 * again. Never changes the mode of a symbolic link.
 */
public final class Metadata {

    private final Effects effects;
    private final Outcomes outcomes;
    private final Xattrs xattrs;
    private final boolean times;
    private final boolean owner;
    private final boolean mode;

    public Metadata(CopyOptions options, Effects effects, Outcomes outcomes, Xattrs xattrs) {
        this.effects = effects;
        this.outcomes = outcomes;
        this.xattrs = xattrs;
        this.times = options.preserves(Attribute.TIMESTAMPS);
        this.owner = options.preserves(Attribute.OWNERSHIP);
        this.mode = options.preserves(Attribute.MODE);
    }

    /** Whether {@link #apply} changes anything at all (else a copy gets no attributes but its creation mode). */
    public boolean changesAny() {
        return times || owner || mode || xattrs.any();
    }

    /** Whether every extended attribute is copied ({@code --preserve=xattr} with native support). */
    public boolean copiesXattrs() {
        return xattrs.all();
    }

    /**
     * Applies the preserved attributes of {@code st} to {@code dst} (the link itself when
     * {@code symlink}, else what {@code dst} leads to: a file being created may be reached through
     * {@code /proc/self/fd}), in GNU cp's order: times, ownership, extended attributes when
     * {@code withXattrs} (after the ownership, whose change clears {@code security.capability}), mode.
     * Where the ownership cannot be kept, set-uid, set-gid and sticky bits are not given either (a
     * set-uid file must not become set-uid for the copying user). Failures are reported as failures of
     * {@code src}'s entry (named {@code reportAs}) and do not stop the others. Returns false if one failed.
     */
    public boolean apply(Path src, Path dst, Path reportAs, Stat st, boolean symlink, boolean withXattrs) {
        return apply(src, dst, reportAs, st, symlink, withXattrs, 0);
    }

    /**
     * {@link #apply}, where the destination has the set-uid, set-gid or sticky bits {@code destinationSpecial}
     * (a set-gid bit a directory inherited from its parent): a source mode without such bits leaves them,
     * as GNU cp leaves them (it sets such a mode as an access ACL, which does not touch them).
     */
    public boolean apply(Path src, Path dst, Path reportAs, Stat st, boolean symlink, boolean withXattrs, int destinationSpecial) {
        return apply(src, null, dst, reportAs, st, symlink, withXattrs, destinationSpecial, false);
    }

    /**
     * {@link #apply}, the times last where {@code timesLast}: for a file under its final name in a
     * staged tree, whose time is what {@code --resume} takes as the sign that it is complete
     * ({@link dev.cpx.core.decide.ResumeRule}), so it must come after everything else; its extended
     * attributes read from {@code srcOpen}, the source's open descriptor as a path, where not null.
     */
    public boolean apply(Path src, Path srcOpen, Path dst, Path reportAs, Stat st, boolean symlink, boolean withXattrs,
            int destinationSpecial, boolean timesLast) {
        return apply(src, srcOpen, dst, reportAs, st, symlink, withXattrs, destinationSpecial, timesLast, 0);
    }

    /**
     * {@link #apply(Path, Path, Path, Path, Stat, boolean, boolean, int, boolean)} of a copy that has
     * some of the preserved attributes already ({@code already}: {@link NewEntries#OWNER},
     * {@link NewEntries#MODE}, as the kernel made it), which are then not set again, or no ACL
     * ({@link NewEntries#NO_ACL}), so none to remove.
     */
    public boolean apply(Path src, Path srcOpen, Path dst, Path reportAs, Stat st, boolean symlink, boolean withXattrs,
            int destinationSpecial, boolean timesLast, int already) {
        boolean ok = timesLast || times(src, dst, reportAs, st, symlink);
        int permissions = st.permissions();
        if (owner && (already & NewEntries.OWNER) == 0) {
            try {
                effects.setOwner(dst, st.uid(), st.gid(), !symlink);
            } catch (IOException e) {
                permissions &= ~07000;
                // As GNU cp does for an unprivileged user: keep the group if possible, say nothing.
                if (!isPermissionError(e)) {
                    ok = fail(src, reportAs, "failed to preserve ownership for {0}", e);
                } else {
                    try {
                        effects.setGroup(dst, st.gid(), !symlink);
                    } catch (IOException ignored) {
                        // the group is not ours to give either
                    }
                }
            }
        }
        if (withXattrs && !symlink) {
            xattrs.copy(src, srcOpen, dst, reportAs, (already & NewEntries.NO_ACL) == 0, st.isDirectory());
        }
        if ((permissions & 07000) == 0) {
            permissions |= destinationSpecial & 07000;
        }
        if (mode && !symlink && (already & NewEntries.MODE) == 0) {
            ok &= chmod(src, dst, reportAs, permissions);
        }
        return timesLast ? times(src, dst, reportAs, st, symlink) && ok : ok;
    }

    private boolean times(Path src, Path dst, Path reportAs, Stat st, boolean symlink) {
        if (times) {
            try {
                effects.setTimes(dst, st.atime(), st.mtime(), !symlink);
            } catch (IOException e) {
                return fail(src, reportAs, "preserving times for {0}", e);
            }
        }
        return true;
    }

    /** Sets the permission bits (set-uid, set-gid and sticky included) of a non-link, reached by {@code dst}. */
    public boolean chmod(Path src, Path dst, Path reportAs, int permissions) {
        try {
            effects.setMode(dst, permissions);
            return true;
        } catch (IOException e) {
            return fail(src, reportAs, "preserving permissions for {0}", e);
        }
    }

    private static boolean isPermissionError(IOException e) {
        return e instanceof AccessDeniedException
                || (e instanceof FileSystemException f && "Operation not permitted".equals(f.getReason()));
    }

    private boolean fail(Path src, Path dst, String template, IOException e) {
        outcomes.failed(src, dst, Diagnostic.of(template, dst, Diagnostic.reasonOf(e)));
        return false;
    }
}
