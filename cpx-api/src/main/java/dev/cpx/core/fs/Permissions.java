package dev.cpx.core.fs;

import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/** Mode bits as NIO creation attributes, made once for each of the 512 permission values. */
public final class Permissions {

    private static final PosixFilePermission[] BITS = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ,
    };

    @SuppressWarnings("unchecked")
    private static final FileAttribute<Set<PosixFilePermission>>[] ATTRIBUTES = new FileAttribute[512];

    static {
        for (int mode = 0; mode < 512; mode++) {
            ATTRIBUTES[mode] = PosixFilePermissions.asFileAttribute(set(mode));
        }
    }

    private Permissions() {
    }

    /** The creation attribute for the permission bits of {@code mode} (the umask still applies). */
    public static FileAttribute<Set<PosixFilePermission>> attribute(int mode) {
        return ATTRIBUTES[mode & 0777];
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
