package dev.cpx.core.fs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the process is allowed, read once from {@code /proc/self/status} (Java has no call for
 * these): the umask, whether the effective user is root, and the user and group that own what it
 * makes (the file system ids).
 */
public final class Umask {

    private static final int VALUE;
    private static final boolean ROOT;
    private static final int FS_UID;
    private static final int FS_GID;

    static {
        int umask = 022;
        boolean root = false;
        int fsUid = -1;
        int fsGid = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("Umask:")) {
                    umask = Integer.parseInt(line.substring(6).trim(), 8);
                } else if (line.startsWith("Uid:")) {
                    // real, effective, saved, file system
                    String[] ids = line.substring(4).trim().split("\\s+");
                    root = "0".equals(ids[1]);
                    fsUid = Integer.parseInt(ids[3]);
                } else if (line.startsWith("Gid:")) {
                    fsGid = Integer.parseInt(line.substring(4).trim().split("\\s+")[3]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through to the usual defaults
        }
        VALUE = umask;
        ROOT = root;
        FS_UID = fsUid;
        FS_GID = fsGid;
    }

    private Umask() {
    }

    /** The umask, 022 when it cannot be read. */
    public static int get() {
        return VALUE;
    }

    /** Whether the effective user is root (who may change owners and write any file). */
    public static boolean privileged() {
        return ROOT;
    }

    /** The user that owns what the process makes (its file system user id), -1 when it cannot be read. */
    public static int fileSystemUser() {
        return FS_UID;
    }

    /** The group of what the process makes where the directory does not give its own, -1 when it cannot be read. */
    public static int fileSystemGroup() {
        return FS_GID;
    }
}
