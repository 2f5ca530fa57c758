package dev.cpx.core.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a directory just made says of the entries made in it, and what a copy made there has already: tables. */
class NewEntriesTest {

    @ParameterizedTest(name = "dir {0}:{1} mode {2}, made {3}, fs ids {4}:{5}, umask {6}, system xattrs {7}: {8}:{9}, umask {10}")
    @CsvSource({
        // The usual: owner and group are the process's, the mode is what was asked less the umask.
        "0, 0, 0700, 0700, 0, 0, 022, false, 0, 0, 022",
        "1000, 1000, 0700, 0700, 1000, 1000, 077, false, 1000, 1000, 077",
        // A set-gid directory gives its own group, whatever the process's.
        "1000, 50, 02700, 0700, 1000, 1000, 022, false, 1000, 50, 022",
        // Another group without set-gid (a grpid mount, or a group changed meanwhile): not known.
        "1000, 50, 0700, 0700, 1000, 1000, 022, false, -1, -1, 022",
        // Another owner (NFS's squashed root, vfat's uid=): not known.
        "65534, 65534, 0700, 0700, 0, 0, 022, false, -1, -1, 022",
        // A default ACL (system.* attributes), or modes of the file system's own (vfat's dmask): modes not known.
        "0, 0, 0700, 0700, 0, 0, 022, true, 0, 0, -1",
        "0, 0, 0755, 0700, 0, 0, 022, false, 0, 0, -1",
        // A sticky bit asked for is kept by mkdir; the umask takes what it takes.
        "0, 0, 01750, 01770, 0, 0, 027, false, 0, 0, 027",
        // The process's ids unknown: owners not known.
        "0, 0, 0700, 0700, -1, -1, 022, false, -1, -1, 022",
    })
    void learntFromTheDirectory(int dirUid, int dirGid, String dirMode, String requested, int fsUid, int fsGid, String umask,
            boolean system, int uid, int gid, String newUmask) {
        NewEntries e = NewEntries.of(dirUid, dirGid, Integer.parseInt(dirMode, 8), Integer.parseInt(requested, 8), fsUid, fsGid,
                Integer.parseInt(umask, 8), system);
        assertEquals(uid < 0 && newUmask.equals("-1") && system ? NewEntries.UNKNOWN : new NewEntries(uid, gid, Integer.parseInt(newUmask, 8), system), e);
    }

    @ParameterizedTest(name = "made here {0}:{1} umask {2}, ACLs {3}: a source {4}:{5} {7} made {6} has {8}")
    @CsvSource({
        // Owner and group both the source's: no fchown; the mode asked less the umask is the source's: no fchmod;
        // no ACL in the directory: none inherited to remove.
        "0, 0, 022, false, 0, 0, 0644, 0644, 7",
        "0, 0, 022, false, 0, 0, 0755, 0755, 7",
        // The umask takes a bit the source has: the mode is set.
        "0, 0, 022, false, 0, 0, 0664, 0664, 5",
        "0, 0, 002, false, 0, 0, 0664, 0664, 7",
        // Another owner or group: fchown.
        "0, 0, 022, false, 1000, 0, 0644, 0644, 6",
        "0, 0, 022, false, 0, 50, 0644, 0644, 6",
        // Set-uid, set-gid, sticky: never made with them, always set.
        "0, 0, 022, false, 0, 0, 0755, 04755, 5",
        "0, 0, 022, false, 0, 0, 0755, 02755, 5",
        // Made with owner-write added (an unprivileged copy's xattrs on a read-only file): set back.
        "1000, 1000, 022, false, 1000, 1000, 0644, 0444, 5",
        // A directory with ACLs (a default one): what is made there may have one to remove.
        "0, 0, -1, true, 0, 0, 0644, 0644, 1",
        // Nothing known.
        "-1, -1, -1, true, 0, 0, 0644, 0644, 0",
        "-1, -1, 022, false, 0, 0, 0644, 0644, 6",
        "0, 0, -1, false, 0, 0, 0644, 0644, 5",
    })
    void whatACopyHasAlready(int uid, int gid, String umask, boolean acls, int srcUid, int srcGid, String requested, String wanted,
            int already) {
        NewEntries e = new NewEntries(uid, gid, umask.equals("-1") ? -1 : Integer.parseInt(umask, 8), acls);
        assertEquals(already, e.already(srcUid, srcGid, Integer.parseInt(requested, 8), Integer.parseInt(wanted, 8)));
    }

    @ParameterizedTest(name = "a directory that existed, system xattrs {0}: its own {1}, a new file's {2}")
    @CsvSource({
        "false, 4, 4",
        "true, 0, 0",
    })
    void ofADirectoryThatExisted(boolean system, int itself, int file) {
        NewEntries e = NewEntries.existing(system);
        assertEquals(itself, e.itself());
        assertEquals(file, e.already(0, 0, 0644, 0644));
    }

    @ParameterizedTest(name = "a copy {0}:{1} {2} of a source {3}:{4} {5}, known {6}: has {7}")
    @CsvSource({
        // Owner, group and plain mode the source's, no ACL: nothing to set (GNU cp's fchown skipped the same way).
        "0, 0, 0755, 0, 0, 0755, 4, 7",
        // An ACL may be there: the mode is set (it sets the ACL too).
        "0, 0, 0755, 0, 0, 0755, 0, 1",
        // Another owner or group: set; another mode: set.
        "1000, 0, 0755, 0, 0, 0755, 4, 6",
        "0, 50, 0755, 0, 0, 0755, 4, 6",
        "0, 0, 0700, 0, 0, 0755, 4, 5",
        // Set-uid, set-gid, sticky on either: the mode is set (chmod may take an inherited set-gid bit off, as GNU's does).
        "0, 0, 02755, 0, 0, 02755, 4, 5",
        "0, 0, 02755, 0, 0, 0755, 4, 5",
        "0, 0, 01777, 0, 0, 01777, 4, 5",
    })
    void whatACopyThereHasAlready(int uid, int gid, String mode, int srcUid, int srcGid, String srcMode, int known, int kept) {
        assertEquals(kept, NewEntries.kept(directory(uid, gid, mode), directory(srcUid, srcGid, srcMode), known));
    }

    private static Stat directory(int uid, int gid, String mode) {
        java.nio.file.attribute.FileTime t = java.nio.file.attribute.FileTime.fromMillis(0);
        return new Stat(Stat.S_IFDIR | Integer.parseInt(mode, 8), 0, 1, 2, 2, uid, gid, 0, t, t, t);
    }
}
