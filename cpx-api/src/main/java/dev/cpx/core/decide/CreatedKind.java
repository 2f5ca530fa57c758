package dev.cpx.core.decide;

import dev.cpx.core.fs.Stat;

/**
 * GNU cp's word for what it makes of a source, as its "cannot create KIND 'DST'" messages name it:
 * a directory, a symbolic link, a FIFO ("fifo") or device or socket ("special file") where those are
 * made as such, and otherwise a regular file (the data of a special file read as data too).
 */
public final class CreatedKind {

    private CreatedKind() {
    }

    /**
     * @param type the source's file type ({@code st_mode & S_IFMT})
     * @param specialsAsSpecial whether a FIFO, device or socket is made as such ({@code -r} without
     *     {@code --copy-contents}), not read as data into a regular file
     */
    public static String of(int type, boolean specialsAsSpecial) {
        switch (type) {
            case Stat.S_IFDIR:
                return "directory";
            case Stat.S_IFLNK:
                return "symbolic link";
            case Stat.S_IFIFO:
                return specialsAsSpecial ? "fifo" : "regular file";
            case Stat.S_IFCHR:
            case Stat.S_IFBLK:
            case Stat.S_IFSOCK:
                return specialsAsSpecial ? "special file" : "regular file";
            default:
                return "regular file";
        }
    }

    /** {@code "cannot create KIND {0}"}: a {@link dev.cpx.api.Diagnostic} template for the copy's name. */
    public static String cannotCreate(int type, boolean specialsAsSpecial) {
        return "cannot create " + of(type, specialsAsSpecial) + " {0}";
    }
}
