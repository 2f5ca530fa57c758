package dev.cpx.core;

import dev.cpx.api.Dereference;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Entries that are made rather than written: symbolic links (copied as links with the same target
 * text), special files (recreated, never opened), and links in place of copies ({@code -l},
 * {@code -s}, and hard links kept with {@code --preserve=links}). Each is made with its final name
 * in one system call, so it is never seen half made. Every method reports its own failures and
 * returns whether the entry now exists.
 */
final class NonFiles {

    /** The one system call that makes the entry. */
    @FunctionalInterface
    private interface Maker {
        void make() throws IOException;
    }

    /** What is set on the new entry after it is made. */
    private enum Attributes {
        /** Nothing: a link to something else has that thing's attributes. */
        NONE,
        /** The link's own ownership and times. */
        OF_LINK,
        /** Everything preserved, xattrs included. */
        ALL
    }

    private final CopyRun run;

    NonFiles(CopyRun run) {
        this.run = run;
    }

    boolean copySymlink(Path src, Path dst, Stat st, boolean dstAbsent) {
        if (run.cancelled()) {
            return false;
        }
        Path target;
        try {
            target = Files.readSymbolicLink(src);
        } catch (IOException e) {
            run.failed(EntryKind.SYMLINK, src, dst, Diagnostic.of("cannot read symbolic link {0}", src, Diagnostic.reasonOf(e)));
            return false;
        }
        return make(EntryKind.SYMLINK, src, dst, st, dstAbsent, false, Attributes.OF_LINK,
                Diagnostic.of("cannot create symbolic link {0}", dst), () -> Files.createSymbolicLink(dst, target));
    }

    /** Recreates a FIFO, socket or device node; never opens it. */
    boolean copySpecial(Path src, Path dst, Stat st, boolean dstAbsent) {
        if (run.cancelled()) {
            return false;
        }
        Diagnostic cannot = Diagnostic.of(st.type() == Stat.S_IFIFO ? "cannot create fifo {0}" : "cannot create special file {0}", dst);
        if (run.extras == null) {
            run.failed(EntryKind.SPECIAL, src, dst, cannot.withReason("Operation not supported (no native support loaded)"));
            return false;
        }
        return make(EntryKind.SPECIAL, src, dst, st, dstAbsent, false, Attributes.ALL, cannot,
                () -> run.extras.makeNode(dst, st.type() | run.creationMode(st), st.rdev()));
    }

    /**
     * Makes {@code dst} a hard link to {@code existing}: the source itself for {@code -l}, or the
     * first copy of the same inode with {@code --preserve=links}.
     */
    boolean hardLink(Path src, Path dst, Stat st, boolean dstAbsent, Path existing, boolean linkMode) {
        if (run.cancelled()) {
            return false;
        }
        // -l follows links where GNU cp does (-L, and by default): the link is made to what they point to.
        boolean follow = linkMode && run.options.effectiveDereference() == Dereference.ALWAYS;
        return make(kindOf(st), src, dst, st, dstAbsent, linkMode, Attributes.NONE,
                Diagnostic.of("cannot create hard link {0} to {1}", dst, existing),
                () -> Files.createLink(dst, follow ? existing.toRealPath() : existing));
    }

    /** {@code -s}: makes {@code dst} a symbolic link to {@code src} as given. */
    boolean symbolicLink(Path src, Path dst, Stat st, boolean dstAbsent) {
        if (run.cancelled()) {
            return false;
        }
        EntryKind kind = kindOf(st);
        if (!src.isAbsolute() && !inWorkingDirectory(dst)) {
            run.failed(kind, src, dst, Diagnostic.of("{r0}: can make relative symbolic links only in current directory", dst));
            return false;
        }
        return make(kind, src, dst, st, dstAbsent, true, Attributes.NONE,
                Diagnostic.of("cannot create symbolic link {0} to {1}", dst, src), () -> Files.createSymbolicLink(dst, src));
    }

    /**
     * The common course: prepare the destination (policies, backups, removal), then, unless that
     * decided otherwise or this is a dry run, make the entry, give it its attributes and report it.
     */
    private boolean make(EntryKind kind, Path src, Path dst, Stat st, boolean dstAbsent, boolean linkMode,
            Attributes attributes, Diagnostic cannot, Maker maker) {
        Destinations.Decision d = run.destinations.prepare(kind, src, dst, st, dstAbsent, true, linkMode);
        if (d.action() == Destinations.Action.SKIP) {
            return false;
        }
        if (d.action() == Destinations.Action.DONE) {
            return true;
        }
        if (!run.options.dryRun()) {
            try {
                maker.make();
            } catch (IOException e) {
                run.failed(kind, src, dst, cannot.withReason(Diagnostic.reasonOf(e)));
                return false;
            }
            if (attributes == Attributes.ALL) {
                run.xattrs.copy(src, dst, dst);
            }
            if (attributes != Attributes.NONE) {
                run.metadata.apply(src, dst, st, attributes == Attributes.OF_LINK);
            }
        }
        run.copied(kind, src, dst, 0, d.backup(), d.replaced());
        return true;
    }

    private static boolean inWorkingDirectory(Path dst) {
        Path parent = dst.getParent();
        if (parent == null) {
            return true;
        }
        try {
            return Stat.stat(parent).sameFile(Stat.stat(PathBytes.path(new byte[] {'.'})));
        } catch (IOException e) {
            return false;
        }
    }

    static EntryKind kindOf(Stat st) {
        if (st.isSymlink()) {
            return EntryKind.SYMLINK;
        }
        if (st.isSpecial()) {
            return EntryKind.SPECIAL;
        }
        return st.isDirectory() ? EntryKind.DIRECTORY : EntryKind.FILE;
    }
}
