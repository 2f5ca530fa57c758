package dev.cpx.cli.differential;

import dev.cpx.api.EngineRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Metadata, in the order GNU cp sets it and with the privilege it has: the directories
 * {@code --parents} makes (their modes from the source with {@code -p}/{@code --preserve=mode},
 * from the umask without, set-gid inherited from the destination), set-uid/set-gid/sticky bits
 * that copy.c clears when ownership cannot be kept, extended attributes (a file capability,
 * {@code user.*} on a read-only file, which an unprivileged copy can only set while the copy is
 * still writable), and {@code --attributes-only} onto what already exists. Each as root and as the
 * unprivileged user, under umask 022 and 077 where the umask matters.
 *
 * <p>GNU 9.1 specific: when an xattr cannot be set, 9.1 says {@code setting attribute 'NAME' for
 * 'NAME'} (the attribute's name where the file's belongs; later releases name the file), and
 * {@code -a}/{@code --preserve=all} report it but exit 0, while {@code --preserve=xattr} fails.
 */
class MetadataTest {

    static Row umask(Row row, String umask) {
        return umask.equals("022") ? row : row.wrapped("umask " + umask, "umask " + umask + "\nexec \"$@\"");
    }

    static final String PARENTS_SOURCE = """
            mkdir -p a/b/c
            echo f > a/b/c/file
            chmod 0700 a
            chmod 1751 a/b
            chgrp "$G" a/b/c
            chmod 2775 a/b/c
            """;

    static List<Row> parents() {
        List<Row> rows = new ArrayList<>();
        List<String[]> dests = List.of(
                new String[] {"new d", "mkdir d\n"},
                new String[] {"d/a exists 0777", "mkdir -p d/a\nchmod 0777 d/a\n"},
                new String[] {"d set-gid", "mkdir d\nchgrp \"$G\" d\nchmod 2775 d\n"});
        List<String[]> commands = List.of(
                new String[] {"--parents", "a/b/c/file d"},
                new String[] {"--parents --no-preserve=mode", "a/b/c/file d"},
                new String[] {"--parents --preserve=mode", "a/b/c/file d"},
                new String[] {"--parents --preserve=ownership", "a/b/c/file d"},
                new String[] {"--parents -p", "a/b/c/file d"},
                new String[] {"--parents -a", "a/b/c/file d"},
                new String[] {"--parents -r", "a/b d"},
                new String[] {"--parents -rp", "a/b d"});
        for (boolean user : List.of(false, true)) {
            for (String umask : user ? List.of("022") : List.of("022", "077")) {
                for (String[] d : dests) {
                    for (String[] c : user ? commands.subList(3, 7) : commands) {
                        Row row = Row.cp("parents", PARENTS_SOURCE + d[1], c[0], c[1]).variant(d[0] + (user ? ", as cpxtest" : ""))
                                .unprivileged(user).rule("cp.c: make_dir_parents_private / re_protect");
                        // The source's set-gid group is root's as the user: chown to it fails.
                        rows.add(umask(user ? row.post("chgrp 0 a/b/c\nchmod 2775 a/b/c") : row, umask));
                    }
                }
            }
        }
        for (String opt : List.of("--parents", "--parents -r")) {
            rows.add(Row.cp("parents", "echo f > f\nmkdir d\n", opt, "f/g d").variant("f is a file").rule("cp.c: --parents through a file"));
        }
        return rows;
    }

    /** security.capability for cap_net_raw, permitted and effective (VFS_CAP_REVISION_2), as setcap writes it. */
    static final byte[] CAP_NET_RAW = {1, 0, 0, 2, 0, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

    static void setXattr(Path p, String name, byte[] value) throws Exception {
        EngineRegistry.discoverExtras().setXattr(p, name, value, false);
    }

    static List<Row> privilege() {
        List<Row> rows = new ArrayList<>();
        // A file capability: set after the scene is chowned (chown drops it).
        for (boolean user : List.of(false, true)) {
            String who = user ? "as cpxtest" : "as root";
            for (String opt : List.of("--preserve=all", "-a", "--preserve=xattr", "-p", "", "--preserve=mode,ownership,xattr")) {
                rows.add(Row.cp("metadata", "echo c > f\nchmod 0755 f\n", opt, "f g").variant("security.capability, " + who)
                        .unprivileged(user).javaPost(scene -> setXattr(scene.resolve("f"), "security.capability", CAP_NET_RAW))
                        .rule("copy.c: copy_attr (security.* needs privilege)"));
            }
            rows.add(Row.cp("metadata", "echo c > f\nchmod 0755 f\necho old > g\n", "--preserve=all", "f g")
                    .variant("security.capability onto an existing file, " + who).unprivileged(user)
                    .javaPost(scene -> setXattr(scene.resolve("f"), "security.capability", CAP_NET_RAW))
                    .rule("copy.c: copy_attr (security.* needs privilege)"));
        }
        // Set-uid, set-gid, sticky: ownership first, then the mode; the bits go where the owner could not be kept.
        List<String> modes = List.of("4755", "2755", "1755");
        List<String[]> owners = List.of(new String[] {"root:root", "0:0"}, new String[] {"cpxtest:root", "$U:0"},
                new String[] {"cpxtest:cpxtest", "$U:$G"});
        for (String mode : modes) {
            for (String[] owner : owners) {
                for (String opt : List.of("-p", "--preserve=mode", "-a")) {
                    for (boolean user : List.of(true, false)) {
                        if (!user && !owner[0].equals("cpxtest:root")) {
                            continue; // as root, ownership is always kept: one owner shows it
                        }
                        rows.add(Row.cp("metadata", "echo s > f\n", opt, "f g")
                                .variant("mode " + mode + " owned by " + owner[0] + (user ? ", as cpxtest" : ", as root"))
                                .unprivileged(user).post("chown " + owner[1] + " f\nchmod " + mode + " f")
                                .rule("copy.c: set-uid/set-gid/sticky cleared when chown fails"));
                    }
                }
            }
        }
        for (boolean user : List.of(true, false)) {
            for (String opt : List.of("-rp", "-a")) {
                rows.add(Row.cp("metadata", "mkdir d\necho in > d/f\n", opt, "d e")
                        .variant("directory 3775 owned by root" + (user ? ", as cpxtest" : ", as root"))
                        .unprivileged(user).post("chown 0:0 d\nchmod 3775 d")
                        .rule("copy.c: set-uid/set-gid/sticky cleared when chown fails"));
            }
        }
        // user.* xattrs of a read-only file: the copy must still be writable when they are set.
        for (boolean user : List.of(true, false)) {
            String who = user ? "as cpxtest" : "as root";
            for (String opt : List.of("--preserve=xattr", "-a", "--preserve=all", "-p", "--preserve=xattr,mode")) {
                rows.add(Row.cp("metadata", "echo x > f\n", opt, "f g").variant("read-only file with user.* xattrs, " + who)
                        .unprivileged(user).java(scene -> {
                            setXattr(scene.resolve("f"), "user.colour", "blue".getBytes(StandardCharsets.UTF_8));
                            setXattr(scene.resolve("f"), "user.empty", new byte[0]);
                        }).post("chmod 0444 f").rule("copy.c: xattrs set while the copy is writable"));
            }
            rows.add(Row.cp("metadata", "echo x > f\necho old > g\n", "--preserve=xattr", "f g")
                    .variant("read-only file with user.* xattrs onto a read-only file, " + who).unprivileged(user)
                    .java(scene -> setXattr(scene.resolve("f"), "user.colour", "blue".getBytes(StandardCharsets.UTF_8)))
                    .post("chmod 0444 f g").rule("copy.c: xattrs set while the copy is writable"));
        }
        return rows;
    }

    /**
     * The earlier copy {@code t/s} of the tree {@code s}, each file there with other contents, mode and
     * time: a re-run of {@code cp -a s t/} writes into each in place and sets what is preserved on it.
     */
    static final String EARLIER_COPY = """
            mkdir -p s/sub t/s/sub
            echo a > s/a
            echo b > s/b
            echo c > s/c
            echo x > s/sub/x
            echo r > s/r
            for f in a b c sub/x r; do echo "older $f" > t/s/$f; chmod 0666 t/s/$f; done
            """;

    static List<Row> ontoEarlierCopy() {
        List<Row> rows = new ArrayList<>();
        for (boolean user : List.of(false, true)) {
            String who = user ? "as cpxtest" : "as root";
            for (String opt : List.of("-a", "-rp", "-r", "-r --preserve=mode", "-r --preserve=ownership", "-r --preserve=timestamps",
                    "-r --preserve=xattr", "-r --preserve=all", "-a --no-preserve=mode", "-a --attributes-only", "-au")) {
                // s/b set-uid and owned by someone else than the user (its set-uid bit goes where ownership cannot be kept);
                // s/c read-only with user.* xattrs (set while the copy is writable); s/r unreadable by the user.
                rows.add(Row.cp("metadata-earlier-copy", EARLIER_COPY, opt, "s t/").variant("files written in place, " + who)
                        .unprivileged(user)
                        .java(scene -> setXattr(scene.resolve("s/c"), "user.colour", "blue".getBytes(StandardCharsets.UTF_8)))
                        .post("chmod 0640 s/a\nold s/a\nchown 0:0 s/b\nchmod 4755 s/b\nchmod 0444 s/c\nnew s/sub/x\n"
                                + "chmod 0750 s/sub\nchmod 0 s/r\nold t/s/c\n")
                        .rule("copy.c: copy_reg onto an existing file, then its attributes on the open descriptor"));
            }
        }
        return rows;
    }

    static List<Row> attributesOnly() {
        List<Row> rows = new ArrayList<>();
        List<String[]> sources = List.of(
                new String[] {"file", "echo source > s\nchmod 0750 s\n"},
                new String[] {"symlink", "echo target > st\nchmod 0640 st\nln -s st s\n"},
                new String[] {"dangling symlink", "ln -s nowhere s\n"},
                new String[] {"dir", "mkdir s\necho in > s/f\nchmod 0705 s\n"});
        List<String[]> dests = List.of(
                new String[] {"absent", ""},
                new String[] {"file", "echo destination, longer > d\nchmod 0600 d\n"},
                new String[] {"symlink", "echo other > dt\nchmod 0604 dt\nln -s dt d\n"},
                new String[] {"dangling symlink", "ln -s missing d\n"});
        List<String> options = List.of("--attributes-only", "-a --attributes-only", "-a -L --attributes-only");
        for (String[] s : sources) {
            for (String[] d : dests) {
                for (String opt : options) {
                    Row row = Row.cp("attributes-only", s[1] + d[1], opt, "s d").variant(s[0] + " onto " + d[0])
                            .rule("copy.c: --attributes-only");
                    rows.add(s[0].equals("file") ? row.java(scene -> setXattr(scene.resolve("s"), "user.k", new byte[] {7})) : row);
                }
            }
        }
        // A source the user cannot read: copy.c's copy_reg opens it before anything, attributes only or not.
        for (String[] d : dests.subList(0, 2)) {
            for (String opt : options.subList(0, 2)) {
                rows.add(Row.cp("attributes-only", "echo source > s\n" + d[1], opt, "s d").variant("unreadable file onto " + d[0])
                        .unprivileged().post("chmod 0 s").rule("copy.c: copy_reg opens the source first"));
            }
        }
        return rows;
    }

    /**
     * A tree of files of every common mode and of several owners, copied as a new tree: cpx knows what
     * a file made in a directory it made gets (owner, group, mode less the umask) and sets only what
     * differs from the source's, so each way that can differ is here: the umask, a set-gid destination
     * of another group, a default ACL above the copy, owners and groups other than the copying user's,
     * set-uid and set-gid files, a new subdirectory in a copy that existed.
     */
    static final String NEW_TREE = """
            mkdir -p s/sub/deeper
            for m in 0644 0664 0600 0755 0444 0640 0777 0700; do
              echo $m > s/f$m
              echo $m > s/sub/g$m
            done
            echo o > s/sub/deeper/user
            echo r > s/sub/user-root
            echo g > s/sub/root-user
            echo u > s/setuid
            echo g > s/setgid
            """;

    /** After the scene is the user's (unprivileged rows): the modes and owners, chown first (it clears set-uid). */
    static final String NEW_TREE_POST = """
            chown 0:0 s/sub/deeper/user s/sub/user-root s/sub/root-user s/setuid s/setgid 2>/dev/null || true
            chown "$U:$G" s/sub/deeper/user 2>/dev/null || true
            chown "$U:0" s/sub/user-root 2>/dev/null || true
            chown "0:$G" s/sub/root-user 2>/dev/null || true
            for m in 0644 0664 0600 0755 0444 0640 0777 0700; do chmod $m s/f$m s/sub/g$m; done
            chmod 4755 s/setuid
            chmod 2755 s/setgid
            chmod 0750 s/sub
            """;

    static List<Row> newTrees() {
        List<Row> rows = new ArrayList<>();
        List<String[]> dests = List.of(
                new String[] {"new t", "", "s t"},
                new String[] {"into t", "mkdir t\n", "s t/"},
                new String[] {"into set-gid t of another group", "mkdir t\nchgrp \"$G\" t\nchmod 2777 t\n", "s t/"},
                new String[] {"into t with a default ACL", "mkdir t\nchmod 0777 t\n! command -v setfacl >/dev/null || setfacl -d -m u:4242:rwx,g::rwx,o::r-x t\n", "s t/"},
                new String[] {"onto a copy without its subdirectory", "mkdir -p t/s\nchmod 0777 t t/s\n", "s t/"});
        for (boolean user : List.of(false, true)) {
            for (String[] d : dests) {
                for (String opt : List.of("-a", "-rp", "-r --preserve=ownership", "-r --preserve=mode,timestamps")) {
                    rows.add(Row.cp("metadata-new-tree", NEW_TREE + d[1], opt, d[2]).variant(d[0] + (user ? ", as cpxtest" : ", as root"))
                            .unprivileged(user).post(NEW_TREE_POST).rule("copy.c: copy_reg's new file, then set_owner and the mode"));
                }
                for (String umask : List.of("002", "077", "000")) {
                    rows.add(umask(Row.cp("metadata-new-tree", NEW_TREE + d[1], "-a", d[2]).variant(d[0] + (user ? ", as cpxtest" : ", as root"))
                            .unprivileged(user).post(NEW_TREE_POST).rule("copy.c: copy_reg's new file, then set_owner and the mode"), umask));
                }
            }
        }
        // ACLs: a copy's become its source's where modes are preserved (GNU's copy_acl), none left inherited or old.
        String setfacl = "! command -v setfacl >/dev/null || setfacl ";
        List<String[]> acls = List.of(
                new String[] {"a file into a directory with a default ACL", "echo a > f\nchmod 0664 f\nmkdir t\n" + setfacl
                        + "-d -m u:4242:rwx,g::rwx t\n", "f t/"},
                new String[] {"onto a file with an ACL", "echo a > f\nchmod 0664 f\necho old > g\n" + setfacl + "-m u:4343:rw g\n", "f g"},
                new String[] {"onto directories with ACLs", "mkdir -p s/d t/s/d\necho a > s/d/f\n" + setfacl + "-m u:4343:rwx t/s t/s/d\n"
                        + setfacl + "-d -m u:4343:rwx t/s/d\n", "s t/"},
                new String[] {"a source with ACLs into a directory with a default ACL", "mkdir -p s/d t\necho a > s/d/f\n" + setfacl
                        + "-m u:4444:r s/d/f\n" + setfacl + "-d -m u:4444:rx s/d\n" + setfacl + "-d -m u:4242:rwx t\n", "s t/"});
        for (String[] a : acls) {
            for (String opt : List.of("-a", "-rp", "-r --preserve=mode", "-r --preserve=ownership", "-r", "-r --preserve=xattr")) {
                rows.add(Row.cp("metadata-acl", a[1], opt, a[2]).variant(a[0]).rule("copy.c: copy_acl where the mode is preserved"));
            }
        }
        return rows;
    }

    @TestFactory
    Stream<DynamicTest> newTreesOwnersAndModes() {
        return Differential.tests(newTrees());
    }

    @TestFactory
    Stream<DynamicTest> parentDirectories() {
        return Differential.tests(parents());
    }

    @TestFactory
    Stream<DynamicTest> ownershipModesAndXattrs() {
        return Differential.tests(privilege());
    }

    @TestFactory
    Stream<DynamicTest> attributesOntoAnEarlierCopy() {
        return Differential.tests(ontoEarlierCopy());
    }

    @TestFactory
    Stream<DynamicTest> attributesOnlyOntoExisting() {
        return Differential.tests(attributesOnly());
    }
}
