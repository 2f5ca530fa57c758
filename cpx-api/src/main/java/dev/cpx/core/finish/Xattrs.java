package dev.cpx.core.finish;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.ShellQuote;
import dev.cpx.api.XattrFailures;
import dev.cpx.core.fs.Anchors;
import dev.cpx.core.fs.Effects;
import dev.cpx.core.run.Outcomes;
import dev.cpx.spi.PosixExtras;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Extended attributes and POSIX ACLs, through the native extras. {@code --preserve=xattr} copies
 * every attribute (but SELinux labels, which belong to {@code context}, and the ACLs);
 * {@code --preserve=mode} copies the ACLs ({@code system.posix_acl_access}, and
 * {@code system.posix_acl_default} of directories), as GNU cp does. Failures are reported as {@link XattrFailures} says.
 */
public final class Xattrs {

    private static final String ACL_ACCESS = "system.posix_acl_access";
    private static final String ACL_DEFAULT = "system.posix_acl_default";
    private static final String SELINUX = "security.selinux";
    private static final String NO_DATA = "No data available";

    private final PosixExtras extras;
    /** The source is read through its directory where that is held, never through a link put in its place. */
    private final Anchors anchors;
    private final Effects effects;
    private final Outcomes outcomes;
    private final boolean all;
    private final boolean acls;
    private final XattrFailures failures;

    public Xattrs(CopyOptions options, PosixExtras extras, Effects effects, Outcomes outcomes, Anchors anchors) {
        this.extras = extras;
        this.anchors = anchors;
        this.effects = effects;
        this.outcomes = outcomes;
        boolean native_ = extras.availability().available();
        this.all = options.preserves(Attribute.XATTR) && native_;
        this.acls = options.preserves(Attribute.MODE) && native_;
        this.failures = options.xattrFailures();
    }

    /** Whether any attribute is copied (all of them, or the ACLs). */
    boolean any() {
        return all || acls;
    }

    /** Whether every extended attribute is copied ({@code --preserve=xattr}). */
    boolean all() {
        return all;
    }

    /**
     * Copies the attributes of {@code src} to {@code dst} (both followed: never called for symbolic
     * links). What cannot be copied is reported as GNU cp (through libattr) reports it, as the options'
     * {@link XattrFailures} say: "listing attributes of SRC", "getting attribute NAME of SRC",
     * "setting attribute NAME for NAME" (GNU 9.1 quotes the name twice there), and "setting
     * attributes for DST" once where the destination supports none. {@code open}: the source's open
     * descriptor as a path ({@code /proc/self/fd/N}), read instead of pinning {@code src} again by its
     * name (the very file copied, two system calls fewer); null: {@code src} pinned through its directory.
     * Where the ACLs are copied, an ACL the source has not is removed from {@code dst} (a directory's
     * default ACL too), as GNU cp's copy of the ACLs leaves none: one inherited from a default ACL
     * above the copy, or an existing file's; {@code copyMayHaveAcls} false: {@code dst} has none.
     */
    void copy(Path src, Path open, Path dst, Path reportAs, boolean copyMayHaveAcls, boolean directory) {
        if (!all && !acls) {
            return;
        }
        List<String> names;
        try {
            names = open != null ? listOpen(open) : anchors.pinned(src, p -> extras.listXattrs(p, true));
        } catch (IOException e) {
            if (!unsupported(e)) {
                report(src, reportAs, Diagnostic.of("listing attributes of {0}", src, Diagnostic.reasonOf(e)), e);
            }
            return;
        }
        if (acls && copyMayHaveAcls) {
            removeAclsNotIn(names, src, dst, reportAs, directory);
        }
        IOException notSupported = null;
        for (String name : names) {
            boolean acl = name.equals(ACL_ACCESS) || name.equals(ACL_DEFAULT);
            // SELinux labels belong to contexts; cpx's own --resume mark is not the file's; ACLs to the
            // mode (as libattr's /etc/xattr.conf has them for GNU cp: "permissions", not copied with xattrs alone).
            if (name.equals(SELINUX) || name.equals(ResumeMarker.NAME) || (acl ? !acls : !all)) {
                continue;
            }
            byte[] value;
            try {
                value = open != null ? extras.getXattr(open, name, true) : anchors.pinned(src, p -> extras.getXattr(p, name, true));
            } catch (IOException e) {
                if (!Diagnostic.reasonOf(e).equals(NO_DATA) && !unsupported(e)) {
                    report(src, reportAs, new Diagnostic("getting attribute " + quoted(name) + " of {0}", List.of(src),
                            Diagnostic.reasonOf(e)), e);
                }
                continue;
            }
            try {
                effects.setXattr(dst, name, value);
            } catch (IOException e) {
                if (acl) {
                    // ACLs belong to the mode: a file system without them keeps the mode bits alone.
                    continue;
                }
                if (unsupported(e)) {
                    notSupported = e;
                } else {
                    report(src, reportAs, new Diagnostic("setting attribute " + quoted(name) + " for " + quoted(name), List.of(),
                            Diagnostic.reasonOf(e)), e);
                }
            }
        }
        if (notSupported != null) {
            report(src, reportAs, Diagnostic.of("setting attributes for {0}", reportAs, Diagnostic.reasonOf(notSupported)), notSupported);
        }
    }

    /**
     * Removes from {@code dst} the ACLs that are not among the source's {@code names}: those the copy
     * has (listed through its open descriptor where it can be, one call; nothing where the file system
     * has no ACLs). A failure is reported as GNU cp reports its failure to set the ACL: "preserving
     * permissions for DST" ({@code reportAs}).
     */
    private void removeAclsNotIn(List<String> names, Path src, Path dst, Path reportAs, boolean directory) {
        List<String> has;
        try {
            has = namesOf(dst);
        } catch (IOException e) {
            has = directory ? BOTH_ACLS : ACCESS_ACL;
        }
        for (String acl : directory ? BOTH_ACLS : ACCESS_ACL) {
            if (has.contains(acl) && !names.contains(acl)) {
                try {
                    effects.removeXattr(dst, acl);
                } catch (IOException e) {
                    if (!unsupported(e)) {
                        outcomes.failed(src, reportAs, Diagnostic.of("preserving permissions for {0}", reportAs, Diagnostic.reasonOf(e)));
                    }
                }
            }
        }
    }

    /** The names on the copy {@code dst} (as {@link #listOpen} lists them); none where the file system has no extended attributes. */
    private List<String> namesOf(Path dst) throws IOException {
        try {
            return listOpen(dst);
        } catch (IOException e) {
            if (unsupported(e)) {
                return List.of();
            }
            throw e;
        }
    }

    private static final List<String> ACCESS_ACL = List.of(ACL_ACCESS);
    private static final List<String> BOTH_ACLS = List.of(ACL_ACCESS, ACL_DEFAULT);

    /**
     * The names on {@code open}, one of cpx's open files ({@code /proc/self/fd/N}): by its descriptor
     * where the engine can, no path resolved; by that path where not (a directory held {@code O_PATH}
     * has no {@code flistxattr}).
     */
    private List<String> listOpen(Path open) throws IOException {
        int fd = anchors.active() ? Anchors.descriptorOf(open) : -1;
        if (fd >= 0) {
            try {
                List<String> names = anchors.descriptors().listXattrs(fd);
                if (names != null) {
                    return names;
                }
            } catch (IOException e) {
                // By its path below.
            }
        }
        return extras.listXattrs(open, true);
    }

    /** A failure, as {@link XattrFailures} says: the entry's, a warning, or nothing. */
    private void report(Path src, Path dst, Diagnostic why, IOException e) {
        switch (failures) {
            case REQUIRED -> outcomes.failed(src, dst, why);
            case REPORTED -> {
                if (!unsupported(e) && !Diagnostic.reasonOf(e).equals(NO_DATA)) {
                    outcomes.warning(why);
                }
            }
            default -> {
            }
        }
    }

    /**
     * Whether {@code e} says the file system has no extended attributes ({@code EOPNOTSUPP}, as the
     * engines and the JDK word it): nothing to copy or to remove there, no ACL either.
     */
    public static boolean unsupported(IOException e) {
        return Diagnostic.reasonOf(e).equals("Operation not supported");
    }

    /** An attribute name in GNU's quotes, its bytes as they are (names are Latin-1 strings of bytes). */
    private static String quoted(String name) {
        return ShellQuote.quote(PathBytes.path(name.getBytes(StandardCharsets.ISO_8859_1)));
    }
}
