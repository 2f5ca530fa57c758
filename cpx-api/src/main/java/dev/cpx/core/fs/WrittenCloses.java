package dev.cpx.core.fs;

import java.util.OptionalLong;

/**
 * Whether the close of a file written on a file system may be put off (done later with others,
 * its result not looked at): only where the kernel's close of a file there never reports an error,
 * the local file systems without a {@code flush} operation (ext2/3/4, XFS, btrfs, tmpfs) or whose
 * {@code flush} always returns 0 (F2FS's, which only rolls back an atomic write of a dying
 * process): {@code close} reports nothing else ({@code filp_flush}). Elsewhere —
 * NFS, CIFS, FUSE, and wherever the type is not known — a write error may first show there, so the
 * file is closed at once and its close checked.
 */
final class WrittenCloses {

    /** {@code statfs}'s {@code f_type} of ext2, ext3 and ext4. */
    static final long EXT4 = 0xEF53L;
    static final long XFS = 0x58465342L;
    static final long TMPFS = 0x01021994L;
    static final long BTRFS = 0x9123683EL;
    static final long F2FS = 0xF2F52010L;

    private WrittenCloses() {
    }

    /** True where {@code fileSystemType} ({@code statfs}'s {@code f_type}) is one whose close never fails. */
    static boolean canBePutOff(OptionalLong fileSystemType) {
        if (fileSystemType.isEmpty()) {
            return false;
        }
        long type = fileSystemType.getAsLong();
        return type == EXT4 || type == XFS || type == TMPFS || type == BTRFS || type == F2FS;
    }
}
