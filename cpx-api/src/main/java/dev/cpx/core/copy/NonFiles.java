package dev.cpx.core.copy;

import dev.cpx.api.CopyMode;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.OverwritePolicy;
import dev.cpx.core.decide.CreatedKind;
import dev.cpx.core.decide.CreationModes;
import dev.cpx.core.decide.DestinationCheck;
import dev.cpx.core.decide.Entry;
import dev.cpx.core.finish.Metadata;
import dev.cpx.core.fs.Effects;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.fs.TempNames;
import dev.cpx.core.run.RunContext;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;

/**
 * Entries that are made rather than written: symbolic links (copied as links with the same target
 * text), special files (recreated, never opened), and links in place of copies ({@code -l},
 * {@code -s}, and hard links kept with {@code --preserve=links}). Each is made with its final name
 * in one system call, so it is never seen half made. Every method reports its own outcome and
 * returns whether the entry now exists.
 */
public final class NonFiles {

    /** The one system call that makes the entry, at {@code at}. */
    @FunctionalInterface
    private interface Maker {
        void make(Path at) throws IOException;
    }

    /** A last check before the entry is made: why it cannot be, or null. */
    @FunctionalInterface
    private interface Check {
        Diagnostic refusal();
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

    private final RunContext context;
    private final Destinations destinations;
    private final Metadata metadata;

    public NonFiles(RunContext context, Destinations destinations, Metadata metadata) {
        this.context = context;
        this.destinations = destinations;
        this.metadata = metadata;
    }

    public boolean copySymlink(Entry e) {
        if (context.cancelled()) {
            return false;
        }
        Path target;
        try {
            target = context.anchors().readSymbolicLink(e.source());
        } catch (IOException x) {
            context.outcomes().failed(EntryKind.SYMLINK, e.source(), e.target(),
                    Diagnostic.of("cannot read symbolic link {0}", e.source(), Diagnostic.reasonOf(x)));
            return false;
        }
        Effects effects = context.effects();
        return make(e, context.options().force(), Attributes.OF_LINK, Diagnostic.of("cannot create symbolic link {0}", e.target()),
                at -> effects.createSymbolicLink(at, target));
    }

    /** Recreates a FIFO, socket or device node; never opens it. */
    public boolean copySpecial(Entry e) {
        if (context.cancelled()) {
            return false;
        }
        Stat st = e.stat();
        Diagnostic cannot = Diagnostic.of(CreatedKind.cannotCreate(st.type(), true), e.target());
        int mode = st.type() | CreationModes.of(st, context.options());
        Effects effects = context.effects();
        return make(e, false, Attributes.ALL, cannot, at -> effects.makeNode(at, mode, st.rdev()));
    }

    /**
     * Makes {@code e}'s destination a hard link to {@code existing}: the source itself for {@code -l}
     * ({@code linkMode}), or the first copy of the same inode with {@code --preserve=links}.
     */
    public boolean hardLink(Entry e, Path existing, boolean linkMode) {
        if (context.cancelled()) {
            return false;
        }
        // Links are followed where GNU cp follows them (-L and by default, -H on the command line): the link
        // is made to what they point to. A later name of an inode is linked to the first one's copy, a
        // symbolic link only with -s: GNU links to it, or, following it, to what it points to.
        boolean follow = DestinationCheck.followsLinks(context.options(), e.operand());
        boolean throughFirstLink = !linkMode && follow && context.options().mode() == CopyMode.SYMBOLIC_LINK;
        // GNU replaces an existing destination with -f or -i for -l, and always for a kept hard link.
        boolean replace = !linkMode || context.options().force() || context.options().overwrite() == OverwritePolicy.ASK;
        Effects effects = context.effects();
        Maker maker = throughFirstLink
                // The first copy is reached where it is (in a tree still staged, through its open directory).
                ? at -> effects.createLink(at, context.anchors().at(existing, Path::toRealPath))
                : at -> effects.createLink(at, linkMode && follow ? existing.toRealPath() : existing);
        Diagnostic cannot = Diagnostic.of("cannot create hard link {0} to {1}", e.target(), existing);
        if (!linkMode) {
            return linkToEarlierCopy(e, cannot, maker);
        }
        return make(e, replace, Attributes.NONE, cannot, maker);
    }

    /**
     * {@code --preserve=links}: a later name of an inode already copied becomes a link to that copy,
     * replacing what is there, as GNU cp does; also where {@code -u} finds the destination up to
     * date, so hard links copied before stay one inode.
     */
    private boolean linkToEarlierCopy(Entry e, Diagnostic cannot, Maker maker) {
        Destinations.Decision d = destinations.prepare(e);
        if (d.action() == Destinations.Action.SKIP) {
            return false;
        }
        boolean replaced;
        try {
            replaced = makeOrReplace(maker, e.target(), d.action() == Destinations.Action.EXISTING || d.action() == Destinations.Action.DONE);
        } catch (IOException x) {
            context.outcomes().failed(e.kind(), e.source(), e.target(), cannot.withReason(Diagnostic.reasonOf(x)));
            destinations.unBackup(e, d.backup());
            return false;
        }
        destinations.made(e);
        if (d.action() != Destinations.Action.DONE) {
            context.outcomes().copied(e.kind(), e.source(), e.target(), 0, d.backup(), d.replaced());
        }
        if (replaced) {
            // GNU's create_hard_link removes what is there once linking found it, and says so with -v.
            context.outcomes().removed(e.target());
        }
        return true;
    }

    /** {@code -s}: makes {@code e}'s destination a symbolic link to its source as given. */
    public boolean symbolicLink(Entry e) {
        if (context.cancelled()) {
            return false;
        }
        Effects effects = context.effects();
        // GNU checks where a relative link may go only once the destination is decided.
        Check relative = () -> e.source().isAbsolute() || inWorkingDirectory(e.target()) ? null
                : Diagnostic.of("{f0}: can make relative symbolic links only in current directory", e.target());
        return make(e, context.options().force(), Attributes.NONE,
                Diagnostic.of("cannot create symbolic link {0} to {1}", e.target(), e.source()),
                at -> effects.createSymbolicLink(at, e.source()), relative);
    }

    /**
     * The common course: prepare the destination (policies, backups, removal), then, unless that
     * decided otherwise, make the entry, give it its attributes and report it.
     *
     * @param replace whether a destination still there when the entry is made is replaced (made under a
     *     temporary name, then renamed over it: the old one stays if making the new one fails)
     */
    private boolean make(Entry e, boolean replace, Attributes attributes, Diagnostic cannot, Maker maker) {
        return make(e, replace, attributes, cannot, maker, () -> null);
    }

    private boolean make(Entry e, boolean replace, Attributes attributes, Diagnostic cannot, Maker maker, Check check) {
        Destinations.Decision d = destinations.prepare(e);
        if (d.action() == Destinations.Action.SKIP) {
            return false;
        }
        if (d.action() == Destinations.Action.DONE) {
            return true;
        }
        Diagnostic refusal = d.refusal() != null ? d.refusal() : check.refusal();
        if (refusal != null) {
            context.outcomes().failed(e.kind(), e.source(), e.target(), refusal);
            destinations.unBackup(e, d.backup());
            return false;
        }
        try {
            makeOrReplace(maker, e.target(), replace && d.action() == Destinations.Action.EXISTING);
        } catch (IOException x) {
            // The entry is not made: a backup made of what was there takes its place again.
            context.outcomes().failed(e.kind(), e.source(), e.target(), cannot.withReason(Diagnostic.reasonOf(x)));
            destinations.unBackup(e, d.backup());
            return false;
        }
        if (attributes != Attributes.NONE) {
            metadata.apply(e.source(), e.target(), e.target(), e.stat(), attributes == Attributes.OF_LINK,
                    attributes == Attributes.ALL);
        }
        destinations.made(e);
        context.outcomes().copied(e.kind(), e.source(), e.target(), 0, d.backup(), d.replaced());
        return true;
    }

    /**
     * Makes the entry at {@code dst}; where {@code dst} exists and {@code replace}, makes it under a
     * temporary name and renames that over {@code dst}, as GNU's {@code force_linkat} does. True when
     * it replaced what was there.
     */
    private boolean makeOrReplace(Maker maker, Path dst, boolean replace) throws IOException {
        try {
            maker.make(dst);
            return false;
        } catch (FileAlreadyExistsException x) {
            if (!replace) {
                throw x;
            }
        }
        Effects effects = context.effects();
        Path temp = TempNames.of(dst);
        effects.remove(temp);
        maker.make(temp);
        try {
            effects.rename(temp, dst);
        } finally {
            // A rename onto another name of the same inode does nothing and leaves the temporary name.
            effects.remove(temp);
        }
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
}
