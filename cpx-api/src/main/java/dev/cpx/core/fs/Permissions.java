package dev.cpx.core.fs;

import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/** Mode bits as NIO creation attributes, each made once, when first asked for. */
public final class Permissions {

    private static final PosixFilePermission[] BITS = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ,
    };

    /**
     * The attributes made so far, by permission bits. Not made all at once: the 512 of them took a
     * worker several milliseconds of interpreted code, and the first directory of every copy waited
     * for it (JFR: 8% of the workers' samples on a 1,000-file copy). A race makes one twice; the
     * attributes are immutable (their one field is final), so either may be kept.
     */
    @SuppressWarnings("unchecked")
    private static final FileAttribute<Set<PosixFilePermission>>[] ATTRIBUTES = new FileAttribute[512];

    private Permissions() {
    }

    /** The creation attribute for the permission bits of {@code mode} (the umask still applies). */
    public static FileAttribute<Set<PosixFilePermission>> attribute(int mode) {
        int bits = mode & 0777;
        FileAttribute<Set<PosixFilePermission>> attribute = ATTRIBUTES[bits];
        if (attribute == null) {
            attribute = PosixFilePermissions.asFileAttribute(set(bits));
            ATTRIBUTES[bits] = attribute;
        }
        return attribute;
    }

    public static Set<PosixFilePermission> set(int mode) {
        EnumSet<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        for (int bit = 0; bit < 9; bit++) {
            if ((mode & (1 << bit)) != 0) {
                set.add(BITS[bit]);
            }
        }
        return set;
    }
}
