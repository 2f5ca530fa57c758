package dev.cpx.core.decide;

import dev.cpx.api.CopyOptions;
import dev.cpx.core.fs.Stat;

/** The permission bits new entries are made with, and what a new directory's mode becomes at the end. */
public final class CreationModes {

    private CreationModes() {
    }

    /**
     * Permission bits a new entry is created with (the umask still applies): the source's, or for
     * files and directories the defaults of {@code --no-preserve=mode} (special files keep the
     * source's, as in GNU cp).
     */
    public static int of(Stat st, CopyOptions o) {
        if (o.defaultModes() && (st.isDirectory() || st.isRegular())) {
            return st.isDirectory() ? 0777 : 0666;
        }
        return st.permissions();
    }

    /**
     * The mode a directory made by this run gets once its contents are done, when its mode is not
     * preserved: it was made with owner rwx added (so its contents could be copied in), which comes
     * off again. {@code -1} when it already has that mode.
     *
     * @param creationMode {@link #of} the source directory
     * @param inheritedSetGid the set-gid bit it got from its parent, which stays
     */
    public static int directoryFinalMode(int creationMode, int umask, int inheritedSetGid) {
        int wanted = (creationMode & 0777 & ~umask) | (creationMode & 01000);
        int made = ((creationMode | 0700) & 0777 & ~umask) | (creationMode & 01000);
        return wanted == made ? -1 : wanted | (inheritedSetGid & 02000);
    }
}
