package dev.cpx.core.decide;

import dev.cpx.api.CopyMode;
import dev.cpx.api.Diagnostic;
import dev.cpx.core.fs.Stat;
import java.nio.file.Path;

/**
 * GNU cp 9.1's answer for a non-directory copied to a destination operand written with a trailing
 * slash ({@code cp f d/}, {@code cp -T f d/}), which can never be made: the kernel takes {@code d/}
 * only as a directory. GNU looks at {@code d/} (following a link), then, where nothing is there,
 * prints its {@code -v} line and tries to make the copy, which fails with the system call's error.
 * The empty destination ({@code cp f ""}) can never be made either: the kernel resolves an empty
 * name to nothing ({@link Probe#EMPTY}).
 */
public final class SlashedTarget {

    private SlashedTarget() {
    }

    /** What {@code stat(d/)} found. */
    public enum Probe {
        /** Nothing there, and no name {@code d} either. */
        ABSENT,
        /** Nothing there through the slash, but the name {@code d} is taken: a dangling symbolic link. */
        DANGLING,
        /** A directory (or a link to one). */
        DIRECTORY,
        /** The stat failed otherwise ({@code d} a file: "Not a directory"). */
        FAILED,
        /** The empty name {@code ""}: every call on it fails with {@code ENOENT}. */
        EMPTY
    }

    /**
     * The failure to report; null where {@code d/} is a directory: the usual checks refuse the copy
     * there, after asking where {@code -i} asks, as GNU does.
     *
     * @param announced whether {@code -v}'s line for the entry comes first (GNU prints it before it
     *     tries to make the copy)
     * @param opensSource whether GNU opens the source to read before it tries (a copy of data): an
     *     unreadable source is then reported instead, as "cannot open 'SRC' for reading"
     */
    public record Refusal(Diagnostic why, boolean announced, boolean opensSource) {
    }

    /**
     * @param source the source as it is copied (a symbolic link only where it is not followed)
     * @param specialsAsSpecial whether a FIFO or device is made as such ({@code -r} without
     *     {@code --copy-contents}), not read as data
     * @param force {@code -f}
     * @param ask {@code -i}
     * @param failure the stat's error message, for {@link Probe#FAILED}
     */
    public static Refusal refusal(Path sourceName, Path target, Stat source, CopyMode mode, boolean specialsAsSpecial,
            boolean force, boolean ask, Probe probe, String failure) {
        switch (probe) {
            case FAILED:
                return new Refusal(Diagnostic.of("cannot stat {0}", target, failure), false, false);
            case DIRECTORY:
                return null;
            default:
                break;
        }
        // Where the link finds the name taken and GNU removes it to try again (-f; -i too for a hard
        // link), the removal of "d/" fails, and that error is the one reported.
        boolean retried = mode == CopyMode.HARD_LINK ? force || ask
                : (mode == CopyMode.SYMBOLIC_LINK || source.isSymlink()) && force;
        String errno = probe == Probe.ABSENT || probe == Probe.EMPTY ? "No such file or directory"
                : retried ? "Not a directory" : "File exists";
        Diagnostic why;
        boolean opensSource = false;
        if (mode == CopyMode.HARD_LINK) {
            why = Diagnostic.of("cannot create hard link {0} to {1}", target, sourceName).withReason(errno);
        } else if (mode == CopyMode.SYMBOLIC_LINK) {
            why = Diagnostic.of("cannot create symbolic link {0} to {1}", target, sourceName).withReason(errno);
        } else if (source.isSymlink() || source.isSpecial() && specialsAsSpecial && mode != CopyMode.ATTRIBUTES_ONLY) {
            why = Diagnostic.of(CreatedKind.cannotCreate(source.type(), true), target, errno);
        } else {
            why = Diagnostic.of("cannot create regular file {0}", target, probe == Probe.EMPTY ? errno : "Not a directory");
            opensSource = true;
        }
        return new Refusal(why, true, opensSource);
    }
}
