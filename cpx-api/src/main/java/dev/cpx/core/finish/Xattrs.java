package dev.cpx.core.finish;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.Diagnostic;
import dev.cpx.core.fs.Effects;
import dev.cpx.core.run.Outcomes;
import dev.cpx.spi.PosixExtras;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Extended attributes and POSIX ACLs, through the native extras. {@code --preserve=xattr} copies
 * every attribute (but SELinux labels, which belong to {@code context}); {@code --preserve=mode}
 * copies the ACLs ({@code system.posix_acl_access}, and {@code system.posix_acl_default} of
 * directories), as GNU cp does. Where the destination cannot hold them (not supported, not
 * permitted) they are left out silently, as GNU cp does without a required preserve.
 */
public final class Xattrs {

    private static final String ACL_ACCESS = "system.posix_acl_access";
    private static final String ACL_DEFAULT = "system.posix_acl_default";
    private static final String SELINUX = "security.selinux";

    private final PosixExtras extras;
    private final Effects effects;
    private final Outcomes outcomes;
    private final boolean all;
    private final boolean acls;

    public Xattrs(CopyOptions options, PosixExtras extras, Effects effects, Outcomes outcomes) {
        this.extras = extras;
        this.effects = effects;
        this.outcomes = outcomes;
        boolean native_ = extras.availability().available();
        this.all = options.preserves(Attribute.XATTR) && native_;
        this.acls = options.preserves(Attribute.MODE) && native_;
    }

    /** Whether any attribute is copied (all of them, or the ACLs). */
    boolean any() {
        return all || acls;
    }

    /** Whether every extended attribute is copied ({@code --preserve=xattr}). */
    boolean all() {
        return all;
    }

    /** Copies the attributes of {@code src} to {@code dst} (both followed: never called for symbolic links). */
    void copy(Path src, Path dst, Path reportAs) {
        if (!all && !acls) {
            return;
        }
        List<String> names;
        try {
            names = extras.listXattrs(src, true);
        } catch (IOException e) {
            if (!ignorable(e)) {
                outcomes.failed(src, reportAs, Diagnostic.of("listing attributes of {0}", src, Diagnostic.reasonOf(e)));
            }
            return;
        }
        for (String name : names) {
            boolean acl = name.equals(ACL_ACCESS) || name.equals(ACL_DEFAULT);
            if (name.equals(SELINUX) || !(all || acl)) {
                continue;
            }
            try {
                effects.setXattr(dst, name, extras.getXattr(src, name, true));
            } catch (IOException e) {
                if (!ignorable(e)) {
                    outcomes.failed(src, reportAs, Diagnostic.of("setting attributes for {0}", reportAs, Diagnostic.reasonOf(e)));
                }
            }
        }
    }

    private static boolean ignorable(IOException e) {
        String r = Diagnostic.reasonOf(e);
        return r.equals("Operation not supported") || r.equals("Operation not permitted") || r.equals("No data available");
    }
}
