package dev.cpx.core;

import dev.cpx.api.Attribute;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributeView;

/**
 * Gives a copy the attributes the options preserve, in GNU cp's order: times, then ownership,
 * then mode (changing the owner clears set-uid and set-gid, so the mode comes last). Never
 * changes the mode of a symbolic link.
 */
final class Metadata {

    private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};
    private static final LinkOption[] FOLLOW = {};

    private final CopyRun run;
    private final boolean times;
    private final boolean owner;
    private final boolean mode;

    Metadata(CopyRun run) {
        this.run = run;
        this.times = run.options.preserves(Attribute.TIMESTAMPS);
        this.owner = run.options.preserves(Attribute.OWNERSHIP);
        this.mode = run.options.preserves(Attribute.MODE);
    }

    /** Whether any attribute is set after the data. */
    boolean any() {
        return times || owner || mode;
    }

    /**
     * Applies the preserved attributes of {@code st} to {@code dst} (the link itself when
     * {@code symlink}, else what {@code dst} leads to: a file being created may be reached through
     * {@code /proc/self/fd}), in GNU cp's order: times, ownership, extended attributes when
     * {@code xattrs} (after the ownership, whose change clears {@code security.capability}), mode.
     * Where the ownership cannot be kept, set-uid, set-gid and sticky bits are not given either (a
     * set-uid file must not become set-uid for the copying user). Failures are reported as failures of
     * {@code src}'s entry (named {@code reportAs}) and do not stop the others. Returns false if one failed.
     */
    boolean apply(Path src, Path dst, Path reportAs, Stat st, boolean symlink, boolean xattrs) {
        boolean ok = true;
        LinkOption[] links = symlink ? NOFOLLOW : FOLLOW;
        if (times) {
            try {
                setTimes(dst, st, symlink);
            } catch (IOException e) {
                ok = fail(src, reportAs, "preserving times for {0}", e);
            }
        }
        int permissions = st.permissions();
        if (owner) {
            try {
                Files.setAttribute(dst, "unix:uid", st.uid(), links);
                Files.setAttribute(dst, "unix:gid", st.gid(), links);
            } catch (IOException e) {
                permissions &= ~07000;
                // As GNU cp does for an unprivileged user: keep the group if possible, say nothing.
                if (!isPermissionError(e)) {
                    ok = fail(src, reportAs, "failed to preserve ownership for {0}", e);
                } else {
                    try {
                        Files.setAttribute(dst, "unix:gid", st.gid(), links);
                    } catch (IOException ignored) {
                        // the group is not ours to give either
                    }
                }
            }
        }
        if (xattrs && !symlink) {
            run.xattrs.copy(src, dst, reportAs);
        }
        if (mode && !symlink) {
            ok &= chmod(src, dst, permissions);
        }
        return ok;
    }

    /** Sets the permission bits (set-uid, set-gid and sticky included) of a non-link. */
    boolean chmod(Path src, Path dst, int permissions) {
        try {
            Files.setAttribute(dst, "unix:mode", permissions);
            return true;
        } catch (IOException e) {
            return fail(src, dst, "preserving permissions for {0}", e);
        }
    }

    /**
     * One {@code utimensat} through the native extras where present. The JDK's own {@code setTimes}
     * opens the file (a FIFO would block forever) and loses nanoseconds on links on JDK 17.
     */
    private void setTimes(Path dst, Stat st, boolean symlink) throws IOException {
        if (run.extras != null) {
            run.extras.setTimes(dst, st.atime(), st.mtime(), !symlink);
        } else {
            Files.getFileAttributeView(dst, BasicFileAttributeView.class, symlink ? NOFOLLOW : FOLLOW)
                    .setTimes(st.mtime(), st.atime(), null);
        }
    }

    private static boolean isPermissionError(IOException e) {
        return e instanceof AccessDeniedException
                || (e instanceof FileSystemException f && "Operation not permitted".equals(f.getReason()));
    }

    private boolean fail(Path src, Path dst, String template, IOException e) {
        run.failed(EntryKind.UNKNOWN, src, dst, Diagnostic.of(template, dst, Diagnostic.reasonOf(e)));
        return false;
    }
}
