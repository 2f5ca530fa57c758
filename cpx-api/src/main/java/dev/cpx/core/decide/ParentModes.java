package dev.cpx.core.decide;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyOptions;

/**
 * The modes of the directories {@code --parents} makes, as GNU cp makes them: while the copy runs
 * they lack what another user must not have before they are ready (group and other write with
 * {@code --preserve=mode}, every group and other bit with {@code --preserve=ownership}) and have owner
 * rwx; at the end they get their final mode.
 */
public final class ParentModes {

    private ParentModes() {
    }

    /** The bits of {@code sourceMode} held back while the copy runs. */
    public static int omitted(int sourceMode, CopyOptions o) {
        return sourceMode & (o.preserves(Attribute.OWNERSHIP) ? 077 : o.preserves(Attribute.MODE) ? 022 : 0);
    }

    /** The mode {@code mkdir} is asked for (the umask applies): 0777 with {@code --no-preserve=mode}. */
    public static int mkdirMode(int sourceMode, CopyOptions o) {
        return (o.defaultModes() ? 0777 : sourceMode) & 07777 & ~omitted(sourceMode, o);
    }

    /**
     * The mode to give the directory at the end when its mode is not preserved (with
     * {@code --preserve=mode} the source's is given), or -1 when it already has it: what {@code mkdir}
     * made of it ({@code createdMode}, an inherited set-gid bit included) plus the bits held back
     * that the umask allows. Owner rwx added while copying comes off again.
     */
    public static int restoreMode(int createdMode, int omitted, int umask, CopyOptions o) {
        if (o.preserves(Attribute.MODE)) {
            return -1;
        }
        int held = (omitted & ~createdMode) != 0 ? omitted & ~umask : omitted;
        if ((held & ~createdMode) != 0 || (createdMode & 0700) != 0700) {
            return (createdMode | held) & 07777;
        }
        return -1;
    }
}
