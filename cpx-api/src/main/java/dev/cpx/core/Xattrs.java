package dev.cpx.core;

import dev.cpx.api.Attribute;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Extended attributes and POSIX ACLs, through the native extras. {@code --preserve=xattr} copies
 * every attribute (but SELinux labels, which belong to {@code context}); {@code --preserve=mode}
 * copies the ACLs ({@code system.posix_acl_access}, and {@code system.posix_acl_default} of
 * directories), as GNU cp does. Where the destination cannot hold them (not supported, not
 * permitted) they are left out silently, as GNU cp does without a required preserve.
 */
final class Xattrs {

    private static final String ACL_ACCESS = "system.posix_acl_access";
    private static final String ACL_DEFAULT = "system.posix_acl_default";
    private static final String SELINUX = "security.selinux";

    private final CopyRun run;
    private final boolean all;
    private final boolean acls;

    Xattrs(CopyRun run) {
        this.run = run;
        this.all = run.options.preserves(Attribute.XATTR);
        this.acls = run.options.preserves(Attribute.MODE);
    }

    /** Whether every extended attribute is copied ({@code --preserve=xattr}). */
    boolean all() {
        return all && run.extras != null;
    }

    /** Whether anything is to be copied at all. */
    boolean any() {
        return (all || acls) && run.extras != null;
    }

    /** Copies the attributes of {@code src} to {@code dst} (both followed: never called for symbolic links). */
    void copy(Path src, Path dst, Path reportAs) {
        if (!any()) {
            return;
        }
        java.util.List<String> names;
        try {
            names = run.extras.listXattrs(src, true);
        } catch (IOException e) {
            if (!ignorable(e)) {
                run.failed(EntryKind.UNKNOWN, src, reportAs, Diagnostic.of("listing attributes of {0}", src, Diagnostic.reasonOf(e)));
            }
            return;
        }
        for (String name : names) {
            boolean acl = name.equals(ACL_ACCESS) || name.equals(ACL_DEFAULT);
            if (name.equals(SELINUX) || !(all || acl)) {
                continue;
            }
            try {
                run.extras.setXattr(dst, name, run.extras.getXattr(src, name, true), true);
            } catch (IOException e) {
                if (!ignorable(e)) {
                    run.failed(EntryKind.UNKNOWN, src, reportAs, Diagnostic.of("setting attributes for {0}",
                            reportAs, Diagnostic.reasonOf(e)));
                }
            }
        }
    }

    private static boolean ignorable(IOException e) {
        String r = Diagnostic.reasonOf(e);
        return r.equals("Operation not supported") || r.equals("Operation not permitted") || r.equals("No data available");
    }
}
