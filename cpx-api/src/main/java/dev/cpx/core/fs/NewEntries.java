package dev.cpx.core.fs;

/**
 * What the kernel gives every entry made in a directory this run created, learnt once from that
 * directory right after its {@code mkdir}: the owner and group (the process's file system user, and
 * the directory's group, which is the process's or, in a set-gid directory, the directory's own), and
 * whether the permission bits asked for are what the entry gets less the umask (no default ACL in
 * the way). A copy whose source has those already needs no {@code fchown} or {@code fchmod} to
 * preserve them: GNU cp skips its {@code fchown} the same way ({@code SAME_OWNER_AND_GROUP}, after an
 * {@code fstat} of the copy), and sets no mode the copy was made with.
 *
 * <p>A directory this run makes inside such a directory gets the same: its owner and group by the
 * same rule (a set-gid bit passes on with the group), and no default ACL before its own attributes are
 * set, which is after its contents. What the directory shows otherwise is not known (-1): the owner
 * where the file system gives another (NFS to a squashed root), the modes where it gives its own
 * (vfat) or a default ACL does; {@link #UNKNOWN} where nothing is.
 *
 * <p>Where modes are preserved, a copy's ACLs become its source's (GNU cp sets them, and so removes
 * those a new entry inherits from a default ACL above it, or an existing file had): where the
 * directory is known to have no ACLs ({@code acls} false, learnt also of a directory that existed),
 * neither it nor what is made in it has one to remove.
 *
 * @param uid the owner of a new entry, -1 when not known
 * @param gid its group, -1 when not known
 * @param umask the umask that alone takes bits off a new entry's mode, -1 when that is not known
 * @param acls whether the directory may have ACLs, which what is made in it may inherit
 */
public record NewEntries(int uid, int gid, int umask, boolean acls) {

    /** Nothing known: every attribute is set as it would be without this. */
    public static final NewEntries UNKNOWN = new NewEntries(-1, -1, -1, true);

    /** {@link #already}: the copy's owner and group are the source's. */
    public static final int OWNER = 1;
    /** {@link #already}: the copy's permission bits are the source's. */
    public static final int MODE = 2;
    /** {@link #already}, {@link #itself}: the copy has no ACL (none to remove where the source has none). */
    public static final int NO_ACL = 4;

    /**
     * What entries made in a directory just created get, from that directory's attributes right after
     * its {@code mkdir} (owner {@code dirUid}, group {@code dirGid}, mode {@code dirMode}), made with
     * permission bits {@code requested} by a process whose file system ids are {@code fsUid} and
     * {@code fsGid}, with {@code umask}; {@code systemXattrs}: the directory has an extended attribute
     * in the {@code system.} namespace (a default ACL, say), or its list could not be read.
     */
    public static NewEntries of(int dirUid, int dirGid, int dirMode, int requested, int fsUid, int fsGid, int umask,
            boolean systemXattrs) {
        boolean owner = fsUid >= 0 && dirUid == fsUid && ((dirMode & 02000) != 0 || dirGid == fsGid);
        boolean modes = !systemXattrs && umask >= 0 && (dirMode & 01777) == (requested & 01777 & ~umask);
        if (!owner && !modes && systemXattrs) {
            return UNKNOWN;
        }
        return new NewEntries(owner ? dirUid : -1, owner ? dirGid : -1, modes ? umask : -1, systemXattrs);
    }

    /**
     * What is known of entries made in a directory that existed: only whether it has ACLs
     * ({@code systemXattrs}: it has {@code system.} extended attributes, or their list could not be read).
     */
    public static NewEntries existing(boolean systemXattrs) {
        return systemXattrs ? UNKNOWN : new NewEntries(-1, -1, -1, false);
    }

    /** What the directory itself has already of what a copy gets: {@link #NO_ACL} or nothing. */
    public int itself() {
        return acls ? 0 : NO_ACL;
    }

    /**
     * Which of the attributes a copy that is there has already, read from the copy itself ({@code copy},
     * by its descriptor) against its source's ({@code source}), given what is known of it
     * ({@code already}, kept): {@link #OWNER} where its owner and group are the source's (GNU cp skips
     * its {@code fchown} then), {@link #MODE} where its permission bits are the source's, neither has a
     * set-uid, set-gid or sticky bit (a {@code chmod} can take a set-gid bit off even when it asks for
     * the same bits) and the copy has no ACL ({@link #NO_ACL} in {@code already}).
     */
    public static int kept(Stat copy, Stat source, int already) {
        int kept = already;
        if (copy.uid() == source.uid() && copy.gid() == source.gid()) {
            kept |= OWNER;
        }
        if ((already & NO_ACL) != 0 && copy.permissions() == source.permissions() && (copy.permissions() & 07000) == 0) {
            kept |= MODE;
        }
        return kept;
    }

    /**
     * Which of the attributes a file made here with permission bits {@code requested} has already of
     * a source owned by {@code uid}, {@code gid} with permission bits {@code wanted} (set-uid, set-gid and
     * sticky included, which a new file is never made with): {@link #OWNER}, {@link #MODE} and {@link #NO_ACL}, or none.
     */
    public int already(int uid, int gid, int requested, int wanted) {
        int kept = 0;
        if (this.uid >= 0 && uid == this.uid && gid == this.gid) {
            kept |= OWNER;
        }
        if (umask >= 0 && (wanted & 07000) == 0 && (requested & 0777 & ~umask) == wanted) {
            kept |= MODE;
        }
        return acls ? kept : kept | NO_ACL;
    }
}
