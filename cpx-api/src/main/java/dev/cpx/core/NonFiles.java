package dev.cpx.core;

import dev.cpx.api.Dereference;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.core.decide.DestinationCheck;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Entries that are made rather than written: symbolic links (copied as links with the same target
 * text), special files (recreated, never opened), and links in place of copies ({@code -l},
 * {@code -s}, and hard links kept with {@code --preserve=links}). Each is made with its final name
 * in one system call, so it is never seen half made. Every method reports its own failures and
 * returns whether the entry now exists.
 */
final class NonFiles {

    /** The one system call that makes the entry, at {@code at}. */
    @FunctionalInterface
    private interface Maker {
        void make(Path at) throws IOException;
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

    boolean copySymlink(Path src, Path dst, Stat st, Placement placement) {
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
        return make(EntryKind.SYMLINK, src, dst, st, placement, run.options.force(), Attributes.OF_LINK,
                Diagnostic.of("cannot create symbolic link {0}", dst), at -> Files.createSymbolicLink(at, target));
    }

    /** Recreates a FIFO, socket or device node; never opens it. */
    boolean copySpecial(Path src, Path dst, Stat st, Placement placement) {
        if (run.cancelled()) {
            return false;
        }
        Diagnostic cannot = Diagnostic.of(st.type() == Stat.S_IFIFO ? "cannot create fifo {0}" : "cannot create special file {0}", dst);
        if (run.extras == null) {
            run.failed(EntryKind.SPECIAL, src, dst, cannot.withReason("Operation not supported (no native support loaded)"));
            return false;
        }
        return make(EntryKind.SPECIAL, src, dst, st, placement, false, Attributes.ALL, cannot,
                at -> run.extras.makeNode(at, st.type() | run.creationMode(st), st.rdev()));
    }

    /**
     * Makes {@code dst} a hard link to {@code existing}: the source itself for {@code -l}, or the
     * first copy of the same inode with {@code --preserve=links}.
     */
    boolean hardLink(Path src, Path dst, Stat st, Placement placement, Path existing, boolean linkMode) {
        if (run.cancelled()) {
            return false;
        }
        // -l follows links where GNU cp does (-L and by default, -H on the command line): the link is made
        // to what they point to.
        boolean follow = linkMode && DestinationCheck.followsLinks(run.options, placement == Placement.OPERAND);
        // GNU replaces an existing destination with -f or -i for -l, and always for a kept hard link.
        boolean replace = !linkMode || run.options.force() || run.options.overwrite() == dev.cpx.api.OverwritePolicy.ASK;
        return make(kindOf(st), src, dst, st, placement, replace, Attributes.NONE,
                Diagnostic.of("cannot create hard link {0} to {1}", dst, existing),
                at -> Files.createLink(at, follow ? existing.toRealPath() : existing));
    }

    /** {@code -s}: makes {@code dst} a symbolic link to {@code src} as given. */
    boolean symbolicLink(Path src, Path dst, Stat st, Placement placement) {
        if (run.cancelled()) {
            return false;
        }
        EntryKind kind = kindOf(st);
        if (!src.isAbsolute() && !inWorkingDirectory(dst)) {
            run.failed(kind, src, dst, Diagnostic.of("{r0}: can make relative symbolic links only in current directory", dst));
            return false;
        }
        return make(kind, src, dst, st, placement, run.options.force(), Attributes.NONE,
                Diagnostic.of("cannot create symbolic link {0} to {1}", dst, src), at -> Files.createSymbolicLink(at, src));
    }

    /**
     * The common course: prepare the destination (policies, backups, removal), then, unless that
     * decided otherwise or this is a dry run, make the entry, give it its attributes and report it.
     *
     * @param replace whether a destination still there when the entry is made is replaced (made under a
     *     temporary name, then renamed over it: the old one stays if making the new one fails)
     */
    private boolean make(EntryKind kind, Path src, Path dst, Stat st, Placement placement, boolean replace,
            Attributes attributes, Diagnostic cannot, Maker maker) {
        Destinations.Decision d = run.destinations.prepare(kind, src, dst, st, placement);
        if (d.action() == Destinations.Action.SKIP) {
            return false;
        }
        if (d.action() == Destinations.Action.DONE) {
            return true;
        }
        if (!run.options.dryRun()) {
            try {
                makeOrReplace(maker, dst, replace && d.action() == Destinations.Action.EXISTING);
            } catch (IOException e) {
                run.failed(kind, src, dst, cannot.withReason(Diagnostic.reasonOf(e)));
                return false;
            }
            if (attributes != Attributes.NONE) {
                run.metadata.apply(src, dst, dst, st, attributes == Attributes.OF_LINK, attributes == Attributes.ALL);
            }
        }
        run.destinations.made(dst, placement);
        run.copied(kind, src, dst, 0, d.backup(), d.replaced());
        return true;
    }

    /**
     * Makes the entry at {@code dst}; where {@code dst} exists and {@code replace}, makes it under a
     * temporary name and renames that over {@code dst}, as GNU's {@code force_linkat} does.
     */
    private static void makeOrReplace(Maker maker, Path dst, boolean replace) throws IOException {
        try {
            maker.make(dst);
            return;
        } catch (FileAlreadyExistsException e) {
            if (!replace) {
                throw e;
            }
        }
        Path temp = TempNames.of(dst);
        Files.deleteIfExists(temp);
        maker.make(temp);
        try {
            Files.move(temp, dst, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            // A rename onto another name of the same inode does nothing and leaves the temporary name.
            Files.deleteIfExists(temp);
        }
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
