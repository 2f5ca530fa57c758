package dev.cpx.core.walk;

import dev.cpx.core.decide.Entry;
import dev.cpx.core.decide.Placement;
import dev.cpx.core.copy.InsertionOrder;

import dev.cpx.api.Dereference;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.core.copy.Directories;
import dev.cpx.core.copy.FileCopier;
import dev.cpx.core.copy.Naming;
import dev.cpx.core.copy.Place;
import dev.cpx.core.fs.Anchors;
import dev.cpx.core.fs.DirectoryPair;
import dev.cpx.core.fs.NewEntries;
import dev.cpx.core.fs.PathLimit;
import dev.cpx.core.fs.Umask;
import dev.cpx.core.decide.CreationModes;
import dev.cpx.spi.Descriptors;
import dev.cpx.spi.DirectoryEntries;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.run.RunContext;
import dev.cpx.core.run.Task;
import dev.cpx.core.run.Workers;
import dev.cpx.core.finish.Xattrs;
import dev.cpx.spi.support.Errno;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Copies the contents of one directory whose copy exists already: lists the source once (attributes
 * read relative to the open directory), sorts the entries by inode as GNU cp does, hands each on,
 * and, once everything below it is done, gives the copy its final mode and times.
 */
final class DirectoryTask extends Task {

    /**
     * A listed entry: its attributes (followed where links are), or why they could not be read
     * ({@code failure}, reported in the entry's turn); {@code inode} is the entry's own, which GNU cp
     * orders a directory by (its listing's, not a followed link's).
     */
    private record Listed(Path path, Path name, Stat stat, long inode, IOException failure) {
    }

    private final RunContext context;
    private final Dispatch dispatch;
    private final Entry directory;
    private final Directories.State state;
    private final Operand operand;
    /** The source directory and its copy, open while this task runs and until it completes; null: by paths. */
    private DirectoryPair dirs;
    /** The copy could not be opened where it was made (replaced meanwhile): nothing of it is touched again. */
    private boolean unreachable;
    /** How many directories this one is below the operand's (0: the operand's). */
    private final int depth;
    /** The parent's directories, which this one waits to be opened through ({@link DirectoryPair#await}); null where not held. */
    private final DirectoryPair above;

    DirectoryTask(Task parent, RunContext context, Dispatch dispatch, Entry directory, Directories.State state, Operand operand) {
        super(parent, context.outcomes());
        this.depth = parent instanceof DirectoryTask d ? d.depth + 1 : 0;
        this.above = parent instanceof DirectoryTask d && d.dirs != null && context.anchors().active() ? awaiting(d.dirs) : null;
        this.context = context;
        this.dispatch = dispatch;
        this.directory = directory;
        this.state = state;
        this.operand = operand;
    }

    /** How many directories this one is below the operand's (0: the operand's). */
    int depth() {
        return depth;
    }

    /** The source directory's attributes. */
    Stat stat() {
        return directory.stat();
    }

    @Override
    protected void execute() {
        try {
            open();
        } finally {
            // Where the opening did not say so (it failed, or never came): once, whenever it comes.
            if (above != null && !opened) {
                above.awaited();
            }
        }
    }

    private static DirectoryPair awaiting(DirectoryPair dirs) {
        dirs.await();
        return dirs;
    }

    /** Whether {@link #above} was told this one was opened. */
    private boolean opened;

    /** Opens the directories (relative to the parent's where they are held), then copies the entries. */
    private void open() {
        if (context.cancelled()) {
            return;
        }
        boolean follow = context.options().effectiveDereference() == Dereference.ALWAYS;
        Anchors anchors = context.anchors();
        if (anchors.active()) {
            // Both opened relative to the directories above (held by the task that copies them), and held
            // for everything below until this task completes: a swap of a name on the way is never followed.
            try {
                dirs = anchors.open(directory.source(), directory.target(), follow, followTarget(anchors),
                        dispatch.directories().stagedAs(directory.target()));
            } catch (Anchors.OpenFailure e) {
                // A source that cannot be read still has a copy, which gets its attributes as GNU cp gives
                // them (reached through its parent, held); a copy that cannot be opened where it was made
                // has been replaced, and nothing of it is touched again.
                unreachable = !e.source();
                context.outcomes().failed(EntryKind.DIRECTORY, directory.source(), directory.target(),
                        Diagnostic.of("cannot access {0}", e.path(), Diagnostic.reasonOf(e.reason())));
                return;
            } catch (IOException e) {
                unreachable = true;
                context.outcomes().failed(EntryKind.DIRECTORY, directory.source(), directory.target(),
                        Diagnostic.of("cannot access {0}", directory.source(), Diagnostic.reasonOf(e)));
                return;
            }
            if (above != null) {
                // Opened: the parent may be parked from now on.
                opened = true;
                above.awaited();
            }
            anchors.hold(directory.source(), directory.target(), dirs);
            // Used while this runs (then, where too many are open, it may be parked until its entries or its end need it).
            dirs.retain();
            try {
                copy(follow);
            } finally {
                dirs.release();
            }
            return;
        } else if (state == Directories.State.CREATED && dispatch.descriptors() != null) {
            dirs = DirectoryPair.open(dispatch.descriptors(),
                    PathBytes.withoutTrailingSlashes(directory.source()), PathBytes.withoutTrailingSlashes(directory.target()));
        }
        copy(follow);
    }

    /** Copies the entries, through {@link #dirs} where they are open, else by their paths. */
    private void copy(boolean follow) {
        if (dirs != null && state == Directories.State.CREATED && getCompleter() instanceof DirectoryTask p && p.dirs != null) {
            // Made in its parent's copy, so on its file system: what the parent learnt of its closes holds,
            // and so does what its new entries get, where the parent was made by this run too.
            dirs.writtenCloses(p.dirs.writtenCloses());
            if (p.state == Directories.State.CREATED) {
                dirs.newEntries(p.dirs.newEntries());
            }
        }
        if (dirs != null && dirs.newEntries() == null && dispatch.preservesOwnerOrMode()) {
            dirs.newEntries(state == Directories.State.CREATED ? newEntries(dirs) : NewEntries.existing(systemXattrs(dirs)));
        }
        if (dirs != null && dispatch.descriptors() != null) {
            copyOpen(dirs, state == Directories.State.CREATED ? Placement.NEW_PARENT : Placement.EXISTING_PARENT);
            return;
        }
        List<Listed> entries = list(follow, dirs == null ? null : Anchors.self(dirs.source()));
        if (entries == null) {
            return;
        }
        entries.sort(Comparator.comparingLong(Listed::inode));
        InsertionOrder order = dispatch.orderFor(entries.size());
        // An operand given as "dir/" is listed as such; its entries are named "dir/name", as GNU cp names them.
        Path into = PathBytes.withoutTrailingSlashes(directory.target());
        Placement placement = state == Directories.State.CREATED ? Placement.NEW_PARENT : Placement.EXISTING_PARENT;
        boolean towardsCopy = operand.leadsToCopy(directory.stat());
        boolean stop = false;
        for (int i = 0; i < entries.size(); i++) {
            Listed e = entries.get(i);
            if (stop || context.cancelled()) {
                order.skip(i);
                continue;
            }
            if (e.failure() != null) {
                order.skip(i);
                cannotStat(e.path(), e.failure());
                continue;
            }
            if (towardsCopy && e.stat().isDirectory()) {
                if (operand.isCopy(e.stat())) {
                    // GNU cp reports this once and stops here, and in each directory above on the way.
                    order.skip(i);
                    context.outcomes().failed(EntryKind.DIRECTORY, operand.source(), operand.target(), Diagnostic.of(
                            "cannot copy a directory, {0}, into itself, {1}", operand.source(), operand.target()));
                    stop = true;
                    continue;
                }
                stop = operand.leadsToCopy(e.stat());
            }
            dispatch.entry(this, order, i, new Entry(e.path(), into.resolve(e.name()), e.stat(), placement), operand);
        }
    }

    /**
     * What entries made in the copy {@code dirs} holds get ({@link NewEntries}), learnt from the copy
     * this run has just made: its attributes, and whether it has {@code system.} extended attributes
     * (a default ACL, which the kernel applies instead of the umask). Nothing has been made in it yet,
     * and its own attributes are set only after its contents. Of a copy that existed only the latter
     * is learnt.
     */
    private NewEntries newEntries(DirectoryPair dirs) {
        Stat made = context.anchors().statOrNull(dirs.target());
        if (made == null) {
            return NewEntries.UNKNOWN;
        }
        return NewEntries.of(made.uid(), made.gid(), made.mode(), CreationModes.directoryWhileCopying(directory.stat(), context.options()),
                Umask.fileSystemUser(), Umask.fileSystemGroup(), Umask.get(), systemXattrs(dirs));
    }

    /** Whether the copy has {@code system.} extended attributes (ACLs), or they could not be listed. */
    private boolean systemXattrs(DirectoryPair dirs) {
        try {
            for (String name : context.extras().listXattrs(Anchors.self(dirs.target()), true)) {
                if (name.startsWith("system.")) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            // Where the file system has no extended attributes, it has no ACLs either.
            return !Xattrs.unsupported(e);
        }
    }

    /** A directory of more entries than this is shared by the workers (see {@link Listing}). */
    static final int SHARED_ABOVE = 64;

    /**
     * The hot path of a plain {@code cp -r}: this directory's copy was just made, so nothing can be in
     * it ({@link Placement#NEW_PARENT}), and both are open; or it existed ({@link Placement#EXISTING_PARENT}),
     * and each destination is looked at by its name in the open copy before anything is made there.
     * The source is listed once ({@code getdents64}: names, inodes, types);
     * entries are taken in inode order; a regular file is opened relative to the directory, its
     * attributes read from the open file, and copied by the worker that took it, made unnamed in the
     * open copy and named there in its turn. Anything else (a directory, link, special file, a file
     * of {@link Dispatch#NAMED_OUT_OF_TURN} or more, a file that changed since it was listed) is looked
     * at ({@code fstatat}) and handed on as by the path-based walk. A directory of more than
     * {@link #SHARED_ABOVE} entries is shared: idle workers help, each taking the next entry in
     * order, as many as there are CPUs until the run waits on the disk ({@link Workers#sharing}),
     * the others from then on; a file made in a staged tree under its own name gives up its turn once made, before its
     * data is written, so that the workers' files are made in turn and seldom wait.
     */
    private void copyOpen(DirectoryPair dirs, Placement placement) {
        DirectoryEntries list = new DirectoryEntries();
        try {
            dirs.descriptors().readDirectory(dirs.source(), list);
        } catch (IOException e) {
            context.outcomes().failed(EntryKind.DIRECTORY, directory.source(), directory.target(),
                    Diagnostic.of("cannot read directory {0}", directory.source(), Diagnostic.reasonOf(e)));
            return;
        }
        int sharing = Workers.sharing();
        Listing listing = new Listing(dirs, list, placement, sharing);
        int shares = (listing.sorted.length + SHARED_ABOVE - 1) / SHARED_ABOVE;
        if (!listing.towardsCopy && shares > 1 && !dispatch.inOrder(placement)) {
            // (Towards the copy, entries after the copy are left out: one worker, in order.)
            int helpers = Math.min(shares - 1, getPool().getParallelism() - 1);
            int now = Math.min(helpers, sharing - 1);
            listing.later.set(helpers - now);
            for (int h = 0; h < now && ForkJoinTask.getSurplusQueuedTaskCount() < 2; h++) {
                dirs.retain();
                spawn(new Helper(listing));
            }
        }
        listing.copyEntries();
    }

    /** A directory's listing being copied: its entries in inode order, each taken once. */
    private final class Listing {
        final DirectoryPair dirs;
        final DirectoryEntries list;
        final int[] sorted;
        final InsertionOrder order;
        final Path from = PathBytes.withoutTrailingSlashes(directory.source());
        final Path into = PathBytes.withoutTrailingSlashes(directory.target());
        /** The byte lengths of {@link #from} and {@link #into}: how long an entry's name may be within GNU's reach. */
        final int fromBytes = PathBytes.of(from).length;
        final int intoBytes = PathBytes.of(into).length;
        final boolean towardsCopy = operand.leadsToCopy(directory.stat());
        final AtomicInteger nextEntry = new AtomicInteger();
        final Placement placement;
        /** Only with {@link #towardsCopy} (one worker): the copy was met, what follows is left. */
        boolean stop;
        /** Helpers not started yet: they join once the run waits on the disk ({@link Workers#sharing}). */
        final AtomicInteger later = new AtomicInteger();

        Listing(DirectoryPair dirs, DirectoryEntries list, Placement placement, int sharing) {
            this.dirs = dirs;
            this.list = list;
            this.placement = placement;
            this.sorted = list.byInode();
            ForkJoinPool pool = getPool(); // (none where the run's own thread copies, as -j 1 may)
            this.order = dispatch.orderFor(sorted.length, pool == null ? 1 : Math.min(sharing, pool.getParallelism()));
        }

        /**
         * Copies entries, each the next not taken yet, until none is left: one at a time, so that
         * workers sharing the directory take neighbouring entries and each finds its turn to be
         * named near ({@link InsertionOrder#awaitTurn}); in chunks, the files of one worker's chunk
         * waited for the other's whole chunk.
         */
        void copyEntries() {
            int i;
            while ((i = nextEntry.getAndIncrement()) < sorted.length) {
                copyEntry(i);
                if ((i & (SHARED_ABOVE - 1)) == 0 && later.get() > 0 && Workers.sharing() == Integer.MAX_VALUE) {
                    for (int h = later.getAndSet(0); h > 0; h--) {
                        dirs.retain();
                        spawn(new Helper(this));
                    }
                }
            }
        }

        private void copyEntry(int i) {
            if (stop || context.cancelled()) {
                order.skip(i);
                return;
            }
            int k = sorted[i];
            // Read only since the listing: the workers read it at once.
            byte[] name = list.name(k);
            int type = list.type(k);
            Stat st = null;
            if (PathLimit.tooLong(Math.max(fromBytes, intoBytes), name.length)) {
                if (PathLimit.tooLong(fromBytes, name.length)) {
                    // GNU cp's first call for it, the source's stat by its path, fails.
                    order.skip(i);
                    cannotStat(from.resolve(PathBytes.path(name)), Errno.forName(Errno.ENAMETOOLONG, name));
                    return;
                }
                // Only its copy's path is beyond: made by that path, as GNU cp makes it, it fails where GNU's does.
                type = DirectoryEntries.UNKNOWN;
            }
            if (type == DirectoryEntries.REGULAR) {
                FileCopier.Left left = dispatch.files().copyAt(new Place(dirs, name), from, into, new Naming(order, i),
                        Dispatch.NAMED_OUT_OF_TURN, dispatch.linksTracked, placement);
                if (left == null) {
                    return;
                }
                st = left.stat();
            }
            Path entryName = PathBytes.path(name);
            Path child = from.resolve(entryName);
            if (st == null) {
                try {
                    st = Stat.of(dirs.descriptors().status(dirs.source(), name));
                } catch (IOException e) {
                    order.skip(i);
                    cannotStat(child, e);
                    return;
                }
            }
            if (towardsCopy && st.isDirectory()) {
                if (operand.isCopy(st)) {
                    order.skip(i);
                    context.outcomes().failed(EntryKind.DIRECTORY, operand.source(), operand.target(), Diagnostic.of(
                            "cannot copy a directory, {0}, into itself, {1}", operand.source(), operand.target()));
                    stop = true;
                    return;
                }
                stop = operand.leadsToCopy(st);
            }
            dispatch.entry(DirectoryTask.this, order, i, new Entry(child, into.resolve(entryName), st, placement), operand);
        }
    }

    /** Another worker's help with a large directory's entries (it holds the open directories until done). */
    private final class Helper extends Task {
        private final Listing listing;

        Helper(Listing listing) {
            super(DirectoryTask.this, context.outcomes());
            this.listing = listing;
        }

        @Override
        protected void execute() {
            try {
                listing.copyEntries();
            } finally {
                listing.dirs.release();
            }
        }

        @Override
        protected Path subject() {
            return directory.source();
        }
    }

    /**
     * The entries of the source directory with their attributes; null when it cannot be read
     * (reported). {@code open}: the source directory's own open descriptor ({@code /proc/self/fd/N}),
     * read instead of its path; null: by its path.
     */
    private List<Listed> list(boolean follow, Path open) {
        List<Listed> entries = new ArrayList<>();
        Path src = directory.source();
        Path dst = directory.target();
        Path from = PathBytes.withoutTrailingSlashes(src);
        Excludes excludes = dispatch.excludes();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(open != null ? open : from)) {
            @SuppressWarnings("unchecked")
            SecureDirectoryStream<Path> secure = stream instanceof SecureDirectoryStream<?> s ? (SecureDirectoryStream<Path>) s : null;
            Path root = operand.source();
            for (Path read : stream) {
                if (context.cancelled()) {
                    break;
                }
                Path name = read.getFileName();
                Path child = open != null ? from.resolve(name) : read;
                Path relative = excludes.isEmpty() ? null : Excludes.relative(root, child);
                if (relative != null && excludes.excludesAnyEntry(name, relative)) {
                    // Pruned before its attributes are even read.
                    context.outcomes().skipped(EntryKind.UNKNOWN, child, dst.resolve(name), Diagnostic.of("excluded {0}", child));
                    continue;
                }
                // The entry itself first: its inode orders the directory; a link is then followed where links are.
                long inode = Long.MAX_VALUE;
                try {
                    Stat cst = stat(secure, name, read, false);
                    inode = cst.ino();
                    if (open != null && PathLimit.tooLong(child)) {
                        // Beyond GNU cp's reach: its stat by the whole path fails, in the entry's turn.
                        entries.add(new Listed(child, name, null, inode, Errno.forPath(Errno.ENAMETOOLONG, child)));
                        continue;
                    }
                    if (follow && cst.isSymlink()) {
                        cst = stat(secure, name, read, true);
                    }
                    if (relative != null && cst.isDirectory() && excludes.excludesDirectory(name, relative)) {
                        context.outcomes().skipped(EntryKind.DIRECTORY, child, dst.resolve(name), Diagnostic.of("excluded {0}", child));
                        continue;
                    }
                    entries.add(new Listed(child, name, cst, inode, null));
                } catch (IOException e) {
                    entries.add(new Listed(child, name, null, inode, e));
                }
            }
        } catch (IOException e) {
            context.outcomes().failed(EntryKind.DIRECTORY, src, dst, Diagnostic.of("cannot access {0}", src, Diagnostic.reasonOf(e)));
            return null;
        } catch (DirectoryIteratorException e) {
            context.outcomes().failed(EntryKind.DIRECTORY, src, dst,
                    Diagnostic.of("cannot read directory {0}", src, Diagnostic.reasonOf(e.getCause())));
            return null;
        }
        return entries;
    }

    /** The attributes of the listed entry {@code name}: relative to the open directory where it is a secure one, else by its path {@code read}. */
    private static Stat stat(SecureDirectoryStream<Path> secure, Path name, Path read, boolean follow) throws IOException {
        return secure != null ? Stat.at(secure, name, read, follow) : Stat.of(read, follow);
    }

    /** Reports that the entry {@code child}'s attributes could not be read. */
    private void cannotStat(Path child, IOException e) {
        context.outcomes().failed(EntryKind.UNKNOWN, child, directory.target(),
                Diagnostic.of("cannot stat {0}", child, Diagnostic.reasonOf(e)));
    }

    /** Whether {@code dir} is this directory or one it is copied under (a cycle, with {@code -L}). */
    boolean isWithin(Stat dir) {
        for (java.util.concurrent.CountedCompleter<?> p = this; p != null; p = p.getCompleter()) {
            if (p instanceof DirectoryTask d && d.stat().sameFile(dir)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the copy is opened through a symbolic link: only one that was in the destination already
     * where a directory was merged into it (GNU cp follows it there), never in place of one made.
     */
    private boolean followTarget(Anchors anchors) {
        if (state == Directories.State.CREATED) {
            return false;
        }
        Stat st = anchors.lstatOrNull(PathBytes.withoutTrailingSlashes(directory.target()));
        return st != null && st.isSymlink();
    }

    @Override
    protected void completed() {
        if (unreachable) {
            return;
        }
        if (dirs == null) {
            dispatch.directories().finish(directory, state);
            return;
        }
        if (!context.anchors().active()) {
            try {
                dispatch.directories().finish(directory, state);
            } finally {
                dirs.release();
            }
            return;
        }
        try {
            // Its attributes through the descriptors held: the directories this task copied, whatever their names are now
            // (opened again where they were parked: the same directories, or none).
            if (dirs.tryRetain()) {
                try {
                    if (getCompleter() instanceof DirectoryTask p && p.dirs != null && p.getPendingCount() == 0) {
                        // The parent's end comes next (this was the last below it): where it was parked, it is
                        // opened again through this directory's "..", not from the top.
                        p.dirs.unparkThrough(dirs);
                    }
                    dispatch.directories().finish(directory, state, dirs.source(), dirs.target(),
                            dirs.newEntries() == null ? 0 : dirs.newEntries().itself());
                } finally {
                    dirs.release();
                }
            }
        } catch (IOException e) {
            context.outcomes().failed(EntryKind.DIRECTORY, directory.source(), directory.target(), Diagnostic.of("cannot access {0}",
                    dirs.lostSource() ? directory.source() : directory.target(), Diagnostic.reasonOf(e)));
        } finally {
            context.anchors().drop(directory.source(), directory.target(), dirs);
        }
    }

    @Override
    protected Path subject() {
        return directory.source();
    }
}
