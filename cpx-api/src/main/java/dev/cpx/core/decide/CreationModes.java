package dev.cpx.core.decide;

import dev.cpx.api.Attribute;
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
        return of(st.mode(), o);
    }

    /** {@link #of(Stat, CopyOptions)} of an entry of this {@code mode} (type and permission bits, as {@code stat} gives them). */
    public static int of(int mode, CopyOptions o) {
        int type = mode & Stat.S_IFMT;
        if (o.defaultModes() && (type == Stat.S_IFDIR || type == Stat.S_IFREG)) {
            return type == Stat.S_IFDIR ? 0777 : 0666;
        }
        return mode & 07777;
    }

    /**
     * The mode a directory is made with while its contents are copied: owner rwx (so they can be
     * copied in, whatever the source's mode), and without what another user must not have before it is
     * ready, as GNU cp makes it: group and other write, or with {@code --preserve=ownership} every
     * group and other bit (until then the directory is not yet its owner's). The umask applies.
     */
    public static int directoryWhileCopying(Stat st, CopyOptions o) {
        int mode = of(st, o);
        int omitted = mode & (o.preserves(Attribute.OWNERSHIP) ? 077 : 022);
        return (mode & ~omitted) | 0700;
    }

    /**
     * The mode a directory made by this run gets once its contents are done, when its mode is not
     * preserved; -1 when it has that mode already ({@code currentMode}, whose inherited set-gid bit stays).
     *
     * @param creationMode {@link #of} the source directory
     */
    public static int directoryFinalMode(int creationMode, int umask, int currentMode) {
        int wanted = (creationMode & 0777 & ~umask) | (creationMode & 01000) | (currentMode & 02000);
        return wanted == (currentMode & 07777) ? -1 : wanted;
    }
}
