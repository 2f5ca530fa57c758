package dev.cpx.core.copy;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyMode;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.ReflinkMode;
import dev.cpx.core.decide.CreationModes;
import dev.cpx.core.decide.Entry;
import dev.cpx.core.decide.Placement;
import dev.cpx.core.finish.Metadata;
import dev.cpx.core.fs.Anchors;
import dev.cpx.core.fs.NewEntries;
import dev.cpx.core.fs.Errors;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.fs.Umask;
import dev.cpx.core.run.Counters;
import dev.cpx.core.run.RunContext;
import dev.cpx.spi.CloneResult;
import dev.cpx.spi.CopyProgress;
import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.Descriptors;
import dev.cpx.spi.FileStatus;
import dev.cpx.spi.SparseMode;
import dev.cpx.spi.support.DescriptorChannel;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongPredicate;

/**
 * Copies the data of one regular file (or, without {@code -r}, of a special file read as data). A
 * new file is written as a {@link NewFile} (unnamed, or under a temporary name) and given its final
 * name only when its data and attributes are complete, so no half-written file is ever visible under
 * its final name. An existing destination is written into in place, as GNU cp does (same inode,
 * hard links to it see the new data), unless a backup or a removal asks for a new one.
 */
public final class FileCopier {

    /** Files at least this large are written under a name (.NAME.cpx-part), so --resume can continue them. */
    static final long RESUMABLE_SIZE = 64L << 20;

    /** Files smaller than this are not checked for holes. */
    static final long HOLE_CHECK_SIZE = 32L << 10;
    /** Files of this size or more never take {@link #copiedPlainly}. */
    static final long PLAIN_SIZE = 1L << 20;

    private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ);
    private static final Set<OpenOption> READ_NOFOLLOW = Set.of(StandardOpenOption.READ, java.nio.file.LinkOption.NOFOLLOW_LINKS);
    private static final Set<OpenOption> OVERWRITE = Set.of(StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    private static final Set<OpenOption> ATTRIBUTES_ONLY = Set.of(StandardOpenOption.WRITE);

    private final RunContext context;
    private final Destinations destinations;
    private final Metadata metadata;
    private final Transfers transfers;
    private final NewFiles newFiles;
    /**
     * Source devices where cloning failed once (e.g. ext4): not tried again with {@code --reflink=auto}.
     * A copy-on-write array (one or two devices, read for every file: no boxing, no hashing).
     */
    private volatile long[] noClone = new long[0];

    /**
     * Files smaller than this take {@link #copiedPlainly} where they can (0: none do): a copy asked for
     * nothing beyond the data and the mode, that no listener hears of file by file, with no file
     * copied in ranges; small enough to be copied in a call or a few, never listed in flight.
     */
    private final long plainBelow;
    private final ReflinkMode reflink;

    public FileCopier(RunContext context, Destinations destinations, Metadata metadata, Transfers transfers) {
        this.context = context;
        this.destinations = destinations;
        this.metadata = metadata;
        this.transfers = transfers;
        this.newFiles = new NewFiles(context.effects());
        CopyOptions o = context.options();
        this.reflink = o.reflink();
        boolean plain = !context.outcomes().hearsEveryCopy() && context.effects().changes() && o.mode() == CopyMode.DATA
                && !metadata.changesAny() && !metadata.copiesXattrs() && !o.verify() && !o.fsync()
                && reflink != ReflinkMode.ALWAYS;
        this.plainBelow = !plain ? 0 : o.rangeSize() > 0 ? Math.min(PLAIN_SIZE, 2 * o.rangeSize()) : PLAIN_SIZE;
    }

    /**
     * Copies {@code e} and names it in its turn ({@code naming}). {@code named} hears, exactly once,
     * the path that now holds the copy (also when what was there already counts as the copy: up to
     * date, complete), or null when there is none; for a file named in its directory's turn, it hears
     * it when that turn has come.
     */
    public void copy(Entry e, Naming naming, Consumer<Path> named) {
        copy(e, naming, named, null, null, NOTHING, null);
    }

    /**
     * {@link #copy(Entry, Naming, Consumer)}, telling {@code decided} once what is to be done with the
     * destination has been decided (asked, and its {@code -v} line printed), before the data is copied:
     * a command-line operand's turn, after which the next operand may start. Called at most once here,
     * not where nothing is copied (skipped, refused, cancelled): the caller tells it once this returns.
     */
    public void copy(Entry e, Naming naming, Consumer<Path> named, Runnable decided) {
        copy(e, naming, named, null, null, decided, null);
    }

    /** No one to tell that a decision was made. */
    public static final Runnable NOTHING = () -> { };

    /** Nothing to hear: {@link #copyAt}'s files are named in their turn and never linked to again. */
    private static final Consumer<Path> UNHEARD = p -> { };

    /**
     * What {@link #copyAt} knows of a file it left to be copied by its paths.
     *
     * @param stat its attributes as read from the open file; null when it could not be opened as a
     *     regular file, so it is to be looked at again
     */
    public record Left(Stat stat) {
    }

    private static final Left UNOPENED = new Left(null);

    /**
     * Copies the regular file {@code place.name()} of an open source directory into its open copy,
     * each step one name relative to an open directory: opened without following a link, its
     * attributes read from the open file (no stat before), made unnamed in the open copy and named
     * there in its turn (in a staged tree: made under its name). {@code source} and {@code target}
     * are the two directories' paths, for messages and outcomes.
     *
     * @param placement {@link Placement#NEW_PARENT} for a directory this run made (nothing to look at
     *     there), else what a plan's worker copies into ({@link Placement#STAGED_PARENT},
     *     {@link Placement#EXISTING_PARENT}: the destination is looked at first, as by paths)
     * @param smallerThan only files smaller than this are copied here
     * @param byPathsWithLinks whether a file with this many names is left to the caller (its
     *     inode is remembered for {@code --preserve=links})
     * @return null when the file was copied or its failure reported; else what is known of it, for
     *     the caller to copy it by its paths instead (a file as large as {@code smallerThan} or more,
     *     one whose links are tracked, not a regular file any more, or one that could not be opened this way)
     */
    public Left copyAt(Place place, Path source, Path target, Naming naming, long smallerThan,
            LongPredicate byPathsWithLinks, Placement placement) {
        return copyAt(place, source, target, naming, smallerThan, byPathsWithLinks, placement, NOTHING);
    }

    /**
     * {@link #copyAt(Place, Path, Path, Naming, long, LongPredicate, Placement)} of a command-line
     * operand, telling {@code decided} as {@link #copy(Entry, Naming, Consumer, Runnable)} does (not
     * when the file is left to the caller).
     */
    public Left copyAt(Place place, Path source, Path target, Naming naming, long smallerThan,
            LongPredicate byPathsWithLinks, Placement placement, Runnable decided) {
        return copyAt(place, source, target, naming, smallerThan, byPathsWithLinks, placement, decided, null);
    }

    /**
     * {@link #copyAt(Place, Path, Path, Naming, long, LongPredicate, Placement, Runnable)}, a new
     * file's data, attributes and name (what follows {@code decided}) handed to {@code handOn} to be
     * run later, on any thread (null: here): an operand's copy while the next operands are decided.
     * What is handed on holds the open source and the file's directories ({@link Place}), retained
     * until it has run.
     */
    public Left copyAt(Place place, Path source, Path target, Naming naming, long smallerThan,
            LongPredicate byPathsWithLinks, Placement placement, Runnable decided, Consumer<Runnable> handOn) {
        Descriptors descriptors = place.directories().descriptors();
        if (!placement.absent() && context.options().update()
                && keptUnopened(place, source, target, naming, smallerThan, byPathsWithLinks, placement, decided)) {
            return null;
        }
        int fd;
        try {
            fd = descriptors.openFile(place.directories().source(), place.name());
        } catch (IOException x) {
            return UNOPENED;
        }
        FileStatus status;
        try {
            status = descriptors.status(fd);
        } catch (IOException x) {
            descriptors.close(fd);
            return UNOPENED;
        }
        boolean regular = (status.mode() & Stat.S_IFMT) == Stat.S_IFREG;
        if (!regular || status.size() >= smallerThan || byPathsWithLinks.test(status.nlink())) {
            descriptors.close(fd);
            return regular ? new Left(Stat.of(status)) : UNOPENED;
        }
        FileChannel in = descriptors.channelClosedLater(fd, true, false);
        if (plainBelow > status.size() && decided == NOTHING && placement != Placement.OPERAND && place.directories().staged()
                && !triesClone(status.dev()) && naming.awaitTurn()
                && copiedPlainly(place, source, target, status, in, naming, placement)) {
            return null;
        }
        Stat st = Stat.of(status);
        Entry e;
        try {
            Path name = PathBytes.path(place.name());
            e = new Entry(source.resolve(name), target.resolve(name), st, placement);
        } catch (RuntimeException x) {
            closeQuietly(in);
            throw x;
        }
        context.counters().filesFound.increment();
        context.counters().bytesFound.add(st.size());
        copy(e, naming, UNHEARD, in, place, decided, handOn);
        return null;
    }

    /**
     * The common case with nothing but its system calls: a regular file into a directory of a tree
     * cpx is making under a staging name, in its turn (so made under its own name, as {@link NewFiles}
     * makes it there, and nothing is there to decide about), not an operand, for a copy {@link
     * #plainBelow} admits. No entry, path, decision or outcome object is made unless something goes
     * wrong; the file is counted, reported and given up as {@link #create(Entry, FileChannel, Naming,
     * Path, boolean, Consumer, Path, Place)} does it. True when done (copied or reported); false when
     * nothing was made (cancelled, or the file could not be created) and the full path is to take it.
     * {@code in} is closed here when true.
     */
    private boolean copiedPlainly(Place place, Path source, Path target, FileStatus st, FileChannel in, Naming naming,
            Placement placement) {
        if (context.cancelled()) {
            return false;
        }
        FileChannel out;
        try {
            out = context.effects().createFileAt(place.directories(), place.name(), CreationModes.of(st.mode(), context.options()) & 0777);
        } catch (IOException x) {
            // Nothing made, nothing read: the full path makes the same call and says what it says.
            return false;
        }
        // Made in its turn: the next entry's turn, while this one's data is written (nothing in a
        // staged tree is seen before the tree is complete). So its giving up passes no turn.
        naming.skip();
        Counters counters = context.counters();
        counters.filesFound.increment();
        counters.bytesFound.add(st.size());
        try {
            long copied;
            try {
                copied = context.engine().copy(new CopyRequest(in, out, 0, CopyRequest.TO_END, st.size(), context.options().sparse(),
                        context.cancellation().progress(), holes(st), context.options().mayShareExtents()));
                if (copied < st.size()) {
                    Entry e = entry(place, source, target, st, placement);
                    DataResult whole = copiedWhole(in, e, copied);
                    if (!whole.ok()) {
                        givePlainUp(e, out, false, whole);
                        return true;
                    }
                }
            } catch (IOException x) {
                Entry e = entry(place, source, target, st, placement);
                givePlainUp(e, out, context.cancelled(), failure(e, x));
                return true;
            } catch (RuntimeException | Error x) {
                // A bug (in an engine, say): give the file up cleanly, then let the task report it.
                madeInTurn(out, entry(place, source, target, st, placement)).abandon(false);
                throw x;
            }
            try {
                out.close();
            } catch (IOException x) {
                Entry e = entry(place, source, target, st, placement);
                givePlainUp(e, out, false, closeFailure(e, x));
                return true;
            }
            context.outcomes().copiedUnheard(copied);
            return true;
        } finally {
            closeQuietly(in);
            counters.filesDone.increment();
        }
    }

    /** {@link #giveUp} of a file {@link #copiedPlainly} made ({@code out}), with no backup, no one to tell and its turn passed. */
    private void givePlainUp(Entry e, FileChannel out, boolean keepPartial, DataResult why) {
        giveUp(e, madeInTurn(out, e), keepPartial, null, why, Naming.IMMEDIATE, UNHEARD);
    }

    /** The {@link NewFile} {@code out} is, made under its own name as {@link NewFiles} makes it in its turn. */
    private NewFile madeInTurn(FileChannel out, Entry e) {
        return new NewFile(context.effects(), out, e.target(), 0, true);
    }

    /** The entry of a file in {@code place}: made only where something is to be said of it. */
    private static Entry entry(Place place, Path source, Path target, FileStatus st, Placement placement) {
        return entry(place, source, target, Stat.of(st), placement);
    }

    private static Entry entry(Place place, Path source, Path target, Stat st, Placement placement) {
        Path name = PathBytes.path(place.name());
        return new Entry(source.resolve(name), target.resolve(name), st, placement);
    }

    /**
     * {@code -u} into an existing directory: a file whose copy is not older is kept without being opened,
     * its attributes read by its name (GNU cp stats such a file and never opens it; a re-run of
     * {@code cp -ru} finds most files so). True when it was kept, counted and told as
     * {@link #copy(Entry, Naming, Consumer, FileChannel, Place, Runnable)} keeps one; false for
     * anything else, to be opened and decided from the open file as before.
     */
    private boolean keptUnopened(Place place, Path source, Path target, Naming naming, long smallerThan,
            LongPredicate byPathsWithLinks, Placement placement, Runnable decided) {
        if (context.cancelled()) {
            return false;
        }
        Stat st;
        try {
            st = Stat.ifThere(place.directories().descriptors(), place.directories().source(), place.name());
        } catch (IOException x) {
            return false;
        }
        if (st == null || !st.isRegular() || st.size() >= smallerThan || byPathsWithLinks.test(st.nlink())) {
            return false;
        }
        Path name = PathBytes.path(place.name());
        Entry e = new Entry(source.resolve(name), target.resolve(name), st, placement);
        if (!destinations.keptAsUpToDate(e, place)) {
            return false;
        }
        context.counters().filesFound.increment();
        context.counters().bytesFound.add(st.size());
        decided.run();
        naming.skip();
        context.counters().filesDone.increment();
        return true;
    }

    /**
     * {@link #copy(Entry, Naming, Consumer)} of a source already open ({@code opened}, closed here;
     * null: opened here by its path), made relative to {@code place} when it is given.
     */
    private void copy(Entry e, Naming naming, Consumer<Path> named, FileChannel opened, Place place, Runnable decided,
            Consumer<Runnable> handOn) {
        try {
            if (context.cancelled()) {
                naming.skip();
                named.accept(null);
                return;
            }
            Destinations.Decision d = destinations.prepare(e, place);
            if (d.refusal() == null) {
                decided.run();
            }
            switch (d.action()) {
                case SKIP -> {
                    naming.skip();
                    named.accept(null);
                }
                case DONE -> {
                    naming.skip();
                    named.accept(e.target());
                }
                case EXISTING -> {
                    naming.skip();
                    FileChannel in = opened;
                    opened = null;
                    named.accept(overwrite(e, d.existing(), in, place) ? e.target() : null);
                }
                case CREATE -> {
                    if (d.refusal() != null) {
                        // Found, as GNU finds it, once the source is open (a FIFO's writer sees it opened).
                        refuse(e, d.refusal());
                        naming.skip();
                        named.accept(null);
                    } else if (context.effects().changes()) {
                        // Made where a dangling symlink points (POSIXLY_CORRECT), else at the destination.
                        FileChannel in = opened;
                        opened = null;
                        if (handOn != null && d.createAt() == null && place != null) {
                            handOn(e, naming, d, named, in, place, handOn);
                        } else {
                            create(e, naming, d.backup(), d.replaced(), named, in, d.createAt(),
                                    d.createAt() == null ? place : null);
                        }
                    } else {
                        // --dry-run: say what would be done, read and write nothing.
                        naming.skip();
                        context.outcomes().copied(EntryKind.FILE, e.source(), e.target(), e.stat().size(), d.backup(),
                                d.replaced());
                        named.accept(e.target());
                    }
                }
                default -> throw new IllegalStateException(d.action().toString());
            }
        } finally {
            closeQuietly(opened);
            context.counters().filesDone.increment();
        }
    }

    /** Hands the rest of a decided new file's copy to {@code handOn}, holding {@code place}'s directories for it. */
    private void handOn(Entry e, Naming naming, Destinations.Decision d, Consumer<Path> named, FileChannel in, Place place,
            Consumer<Runnable> handOn) {
        place.directories().retain();
        handOn.accept(new HandedOnWrite(e, naming, d, named, in, place));
    }

    /**
     * A decided new file's write, run where it was handed on; it lets go of its directories after.
     * A class rather than a lambda, as {@link Publication}: a capturing lambda per file is a call
     * into the VM where C1 compiles.
     */
    private final class HandedOnWrite implements Runnable {
        private final Entry e;
        private final Naming naming;
        private final Destinations.Decision d;
        private final Consumer<Path> named;
        private final FileChannel in;
        private final Place place;

        HandedOnWrite(Entry e, Naming naming, Destinations.Decision d, Consumer<Path> named, FileChannel in, Place place) {
            this.e = e;
            this.naming = naming;
            this.d = d;
            this.named = named;
            this.in = in;
            this.place = place;
        }

        @Override
        public void run() {
            try {
                create(e, naming, d.backup(), d.replaced(), named, in, null, place);
            } finally {
                place.directories().release();
            }
        }
    }

    /**
     * Opens a source file to read, relative to its directory where that is held open: there, a
     * symbolic link put in its place is not followed (unless {@code -L}), as GNU cp opens it
     * ({@code O_NOFOLLOW}); a command-line operand is opened as given.
     */
    private FileChannel openSource(Path src) throws IOException {
        boolean follow = context.options().effectiveDereference() == dev.cpx.api.Dereference.ALWAYS;
        return context.anchors().at(src, p -> p == src || follow ? FileChannel.open(p, READ)
                : FileChannel.open(p, READ_NOFOLLOW));
    }

    /** Reports {@code why} the copy of {@code e} cannot be made, after opening its source as GNU cp does. */
    private void refuse(Entry e, Diagnostic why) {
        FileChannel in;
        try {
            in = openSource(e.source());
        } catch (IOException x) {
            context.outcomes().failed(EntryKind.FILE, e.source(), e.target(),
                    Diagnostic.of("cannot open {0} for reading", e.source(), Diagnostic.reasonOf(x)));
            return;
        }
        closeQuietly(in);
        context.outcomes().failed(EntryKind.FILE, e.source(), e.target(), why);
    }

    /**
     * A new file: data, attributes, then its name in its turn. {@code opened}: the source, open
     * already (closed here; null: opened here by its path); {@code createAt}, when not null, is where
     * it is made (where a dangling destination symlink points, with {@code POSIXLY_CORRECT}), messages
     * naming the destination all the same; {@code place}: where the file is made and named relative to
     * open directories (null: by its path).
     */
    private void create(Entry e, Naming naming, Path backup, boolean replaced, Consumer<Path> named, FileChannel opened,
            Path createAt, Place place) {
        boolean attributesOnly = context.options().mode() == CopyMode.ATTRIBUTES_ONLY;
        FileChannel in;
        try {
            in = opened != null ? opened : openSource(e.source());
            if (attributesOnly) {
                // Opened all the same, as GNU cp's copy_reg opens it first: a source that cannot be read is refused.
                closeQuietly(in);
                in = null;
            }
        } catch (IOException x) {
            context.outcomes().failed(EntryKind.FILE, e.source(), e.target(),
                    Diagnostic.of("cannot open {0} for reading", e.source(), Diagnostic.reasonOf(x)));
            destinations.unBackup(e, backup);
            naming.skip();
            named.accept(null);
            return;
        }
        try {
            create(e, in, naming, backup, replaced, named, createAt == null ? e.target() : createAt, place);
        } finally {
            closeQuietly(in);
        }
    }

    private void create(Entry e, FileChannel in, Naming naming, Path backup, boolean replaced, Consumer<Path> named,
            Path at, Place place) {
        Stat st = e.stat();
        int extra = extraPermissions(st);
        NewFile file = null;
        DataResult data;
        try {
            boolean resumable = st.size() >= RESUMABLE_SIZE && in != null;
            file = resumable && context.options().resume() ? newFiles.continuing(at, in).orElse(null) : null;
            if (file == null && !st.isRegular()) {
                // A FIFO or device read as data may never end: its copy exists at once under its name (as
                // GNU cp makes it), restricted to the owner until its attributes are set.
                file = newFiles.createAtFinalName(at, CreationModes.of(st, context.options()) & restricted());
            } else if (file == null) {
                // A file copied in ranges at once may have gaps until its end: never made under its final name.
                boolean inRanges = context.options().rangeSize() > 0 && st.size() >= 2 * context.options().rangeSize();
                // Nothing waits for this file's outcome in its turn: a file made under its own name
                // passes the turn on at once, while its data is written, as copiedPlainly's does.
                boolean passesTurn = named == UNHEARD && !context.outcomes().hearsEveryCopy() && !destinations.recordsMade(e);
                file = newFiles.create(at, inRanges ? null : place, CreationModes.of(st, context.options()) | extra, resumable,
                        !inRanges && e.placement() == Placement.STAGED_PARENT, naming, passesTurn);
                if (passesTurn && file.madeInTurn()) {
                    naming.skip();
                    naming = Naming.IMMEDIATE;
                }
            }
            data = in == null ? DataResult.copied(0)
                    : transfer(in, file.channel(), e, file.resumedAt(), context.cancellation().progress(), false);
            if (data.ok()) {
                data = finishData(in, file.channel(), true, e, data);
            }
        } catch (IOException x) {
            data = DataResult.failed(Diagnostic.of("cannot create regular file {0}", e.target(), Diagnostic.reasonOf(x)));
        } catch (RuntimeException | Error x) {
            // A bug (in an engine, say): give the file up cleanly, then let the task report it.
            if (file != null) {
                file.abandon(false);
            }
            naming.skip();
            named.accept(null);
            throw x;
        }
        if (!data.ok()) {
            giveUp(e, file, context.cancelled(), backup, data, naming, named);
            return;
        }
        if (metadata.changesAny()) {
            NewEntries madeAs = file.madeAs();
            metadata.apply(e.source(), in instanceof DescriptorChannel d ? Anchors.self(d.descriptor()) : null,
                    file.attributesPath(), e.target(), st, false, true, 0, file.atFinalName(),
                    madeAs == null ? 0 : madeAs.already(st.uid(), st.gid(), CreationModes.of(st, context.options()) | extra, st.permissions()));
        }
        boolean restricted = !st.isRegular() && (CreationModes.of(st, context.options()) & ~restricted() & 0777 & ~Umask.get()) != 0;
        if ((extra != 0 || restricted || ownerAfterAcl(st, file)) && !context.options().preserves(Attribute.MODE)) {
            // The bits added so the xattrs could be set come off again, those held back come back.
            metadata.chmod(e.source(), file.attributesPath(), e.target(), CreationModes.of(st, context.options()) & 0777 & ~Umask.get());
        }
        try {
            file.finishWriting();
        } catch (IOException x) {
            giveUp(e, file, false, backup, closeFailure(e, x), naming, named);
            return;
        }
        naming.insert(new Publication(file, at, e, data.bytes(), backup, replaced, named), !file.isNamed());
    }

    /**
     * A complete file's naming in its turn, and its outcome. A class rather than a lambda: where only
     * C1 compiles, as cpx runs, making a capturing lambda is a call into the VM (per file here).
     */
    private final class Publication implements Runnable {
        private final NewFile complete;
        private final Path at;
        private final Entry e;
        private final long bytes;
        private final Path backup;
        private final boolean replaced;
        private final Consumer<Path> named;

        Publication(NewFile complete, Path at, Entry e, long bytes, Path backup, boolean replaced, Consumer<Path> named) {
            this.complete = complete;
            this.at = at;
            this.e = e;
            this.bytes = bytes;
            this.backup = backup;
            this.replaced = replaced;
            this.named = named;
        }

        @Override
        public void run() {
            FileStatus made = destinations.recordsMade(e) ? complete.status() : null;
            try {
                complete.publish(at);
            } catch (IOException x) {
                // publish gave the file up (an unnamed one vanishes, a temporary name is removed; one
                // whose close failed after its naming lost that name again); the destination's backup
                // goes back, as after any other failure (GNU's un-backup).
                context.outcomes().failed(EntryKind.FILE, e.source(), e.target(), x instanceof NewFile.ClosedAfterNaming
                        ? closeFailure(e, x).failure()
                        : Diagnostic.of("cannot create regular file {0}", e.target(), Diagnostic.reasonOf(x)));
                destinations.unBackup(e, backup);
                named.accept(null);
                return;
            }
            destinations.made(e, made);
            context.outcomes().copied(EntryKind.FILE, e.source(), e.target(), bytes, backup, replaced);
            named.accept(at);
        }
    }

    private static void closeQuietly(FileChannel c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException x) {
                // The source was only read: closing it cannot hurt the copy.
            }
        }
    }

    /**
     * Whether the copy's mode is set after its owner where an ACL may have made it: GNU cp makes a file
     * whose owner is to change without group and other bits ({@code --preserve=ownership} without the
     * mode), and gives them back after the {@code fchown} by a {@code chmod} less the umask, which on
     * a copy that inherited a default ACL sets its mask (elsewhere it changes nothing, and is not made).
     */
    private boolean ownerAfterAcl(Stat st, NewFile file) {
        return context.options().preserves(Attribute.OWNERSHIP) && (file.madeAs() == null || file.madeAs().acls())
                && (CreationModes.of(st, context.options()) & 077 & ~Umask.get()) != 0;
    }

    /**
     * The permission bits a file named before it is complete may have meanwhile: all, or only the
     * owner's when the ownership is to change (until then another user could open it), as GNU cp does.
     */
    private int restricted() {
        return context.options().preserves(Attribute.OWNERSHIP) ? 0700 : 07777;
    }

    /**
     * Permission bits a new file gets while it is written beyond its own: owner-write, where an
     * unprivileged user sets extended attributes on a read-only copy (the kernel asks for write
     * permission to set {@code user.*} attributes), as GNU cp does.
     */
    private int extraPermissions(Stat st) {
        return metadata.copiesXattrs() && !Umask.privileged() ? ~CreationModes.of(st, context.options()) & 0200 : 0;
    }

    /**
     * Writes into the existing destination in place, opened for writing only as GNU cp opens it: a
     * regular file (same inode, hard links see the new data), or a FIFO, terminal or device, which is
     * written in sequence. {@code existing} is its stat (null when it could not be looked at: opening
     * it then fails, and {@code -f} replaces it); {@code opened}, the source open already (closed here;
     * null: opened here by its path); {@code place}, where the destination is opened relative to its
     * open directory (null: by its path). True when done (else reported).
     */
    private boolean overwrite(Entry e, Stat existing, FileChannel opened, Place place) {
        Path src = e.source();
        Path dst = e.target();
        boolean attributesOnly = context.options().mode() == CopyMode.ATTRIBUTES_ONLY;
        boolean seekable = existing == null || existing.isRegular();
        if (!context.effects().changes()) {
            closeQuietly(opened);
            context.outcomes().copied(EntryKind.FILE, src, dst, e.stat().size(), null, true);
            return true;
        }
        FileChannel in;
        try {
            in = opened != null ? opened : openSource(src);
            if (attributesOnly) {
                // Opened all the same, as GNU cp's copy_reg opens it first: a source that cannot be read is refused.
                closeQuietly(in);
                in = null;
            }
        } catch (IOException x) {
            context.outcomes().failed(EntryKind.FILE, src, dst, Diagnostic.of("cannot open {0} for reading", src, Diagnostic.reasonOf(x)));
            return false;
        }
        DataResult data;
        boolean attributesSet = false;
        try {
            FileChannel out;
            try {
                out = place != null && place.directories().descriptors().opensRelative()
                        ? openInPlace(place, !attributesOnly)
                        : context.effects().open(dst, attributesOnly ? ATTRIBUTES_ONLY : OVERWRITE, 0);
            } catch (IOException x) {
                if (!context.options().force() || x instanceof NoSuchFileException) {
                    context.outcomes().failed(EntryKind.FILE, src, dst,
                            Diagnostic.of("cannot create regular file {0}", dst, Diagnostic.reasonOf(x)));
                    return false;
                }
                // -f: remove what cannot be opened and make a new file in its place.
                if (!destinations.remove(EntryKind.FILE, src, dst)) {
                    return false;
                }
                AtomicReference<Path> made = new AtomicReference<>();
                create(e, in, Naming.IMMEDIATE, null, true, made::set, dst, null);
                return made.get() != null;
            }
            try (out) {
                // Truncated already: a cancel would leave it half-written under its name, so it is finished.
                data = in == null ? DataResult.copied(0) : transfer(in, out, e, 0, context.cancellation().finishing(), !seekable);
                if (data.ok() && seekable) {
                    data = finishData(in, out, false, e, data);
                }
                if (data.ok() && out instanceof DescriptorChannel o) {
                    // Through the open file, as GNU cp sets them on its descriptor: no name looked up again.
                    metadata.apply(src, in instanceof DescriptorChannel i ? Anchors.self(i.descriptor()) : null,
                            Anchors.self(o.descriptor()), dst, e.stat(), false, true, 0, false);
                    attributesSet = true;
                }
            } catch (IOException x) {
                data = DataResult.failed(Diagnostic.of("error writing {0}", dst, Diagnostic.reasonOf(x)));
            }
        } finally {
            closeQuietly(in);
        }
        if (!data.ok()) {
            report(e, data);
            return false;
        }
        if (!attributesSet) {
            metadata.apply(src, dst, dst, e.stat(), false, true);
        }
        destinations.made(e);
        context.outcomes().copied(EntryKind.FILE, src, dst, data.bytes(), null, true);
        return true;
    }

    /** The existing destination at {@code place}, opened to be written in place relative to its open directory. */
    private static FileChannel openInPlace(Place place, boolean truncate) throws IOException {
        Descriptors descriptors = place.directories().descriptors();
        int fd = descriptors.openToWrite(place.directories().target(), place.name(), truncate);
        return descriptors.channel(fd, false, true);
    }

    /**
     * A new file given up ({@code data} says why): removed (unless {@code keepPartial} and it has a
     * temporary name), the backup made for it put back, the failure reported, its turn passed.
     */
    private void giveUp(Entry e, NewFile file, boolean keepPartial, Path backup, DataResult data, Naming naming,
            Consumer<Path> named) {
        if (file != null) {
            file.abandon(keepPartial);
        }
        report(e, data);
        destinations.unBackup(e, backup); // after the failure's line, as GNU's un_backup
        naming.skip();
        named.accept(null);
    }

    /** Where a file system reports a write error only at close (NFS, CIFS, FUSE): GNU's message. */
    private static DataResult closeFailure(Entry e, IOException x) {
        return DataResult.failed(Diagnostic.of("failed to close {0}", e.target(), Diagnostic.reasonOf(x)));
    }

    /** Reports a data copy that did not succeed. */
    private void report(Entry e, DataResult data) {
        if (data.interruption() != null) {
            context.outcomes().skipped(EntryKind.FILE, e.source(), e.target(), data.interruption());
        } else {
            context.outcomes().failed(EntryKind.FILE, e.source(), e.target(), data.failure());
        }
    }

    /**
     * After the data: {@code --verify} reads both back and compares them, {@code --fsync} makes the
     * data durable. {@code out} is the channel the data went through; when it is write-only the copy
     * is opened again to be read back.
     */
    private DataResult finishData(FileChannel in, FileChannel out, boolean outReadable, Entry e, DataResult data) {
        try {
            if (context.options().verify() && in != null) {
                boolean same;
                if (outReadable) {
                    same = Verifier.sameContent(in, out, data.bytes());
                } else {
                    try (FileChannel back = context.anchors().at(e.target(), t -> FileChannel.open(t, READ))) {
                        same = Verifier.sameContent(in, back, data.bytes());
                    }
                }
                if (!same) {
                    return DataResult.failed(Diagnostic.of("verification failed: {0} differs from {1}", e.target(), e.source()));
                }
            }
            if (context.options().fsync()) {
                out.force(true);
            }
            return data;
        } catch (IOException x) {
            return DataResult.failed(Diagnostic.of("error reading {0}", e.target(), Diagnostic.reasonOf(x)));
        }
    }

    /**
     * Whether the source has holes, when the extras can tell cheaply. Files under
     * {@link #HOLE_CHECK_SIZE} are treated as dense without a system call, as a hole that small saves little.
     */
    private CopyRequest.Holes holes(FileChannel in, Stat st) {
        return holes(st.isRegular(), st.size(), in, -1);
    }

    /** {@link #holes(FileChannel, Stat)} of a regular file whose status gave its allocated bytes too: no second {@code stat}. */
    private CopyRequest.Holes holes(FileStatus st) {
        return holes(true, st.size(), null, st.allocatedBytes());
    }

    /** The rule of both: {@code allocated} bytes -1 where they are to be asked of {@code in}'s file only if needed. */
    private CopyRequest.Holes holes(boolean regular, long size, FileChannel in, long allocated) {
        if (context.options().sparse() == SparseMode.NEVER || !regular) {
            return CopyRequest.Holes.UNKNOWN;
        }
        if (size < HOLE_CHECK_SIZE) {
            return CopyRequest.Holes.NONE;
        }
        if (allocated < 0) {
            OptionalLong asked = context.extras().allocatedBytes(in);
            if (asked.isEmpty()) {
                return CopyRequest.Holes.UNKNOWN;
            }
            allocated = asked.getAsLong();
        }
        return allocated < size ? CopyRequest.Holes.SOME : CopyRequest.Holes.NONE;
    }

    /**
     * Moves the data with the engine (a clone first when {@code --reflink} allows), telling
     * {@code total} every byte: the run's progress stops the copy when the run is cancelled, the
     * finishing progress never does. A large file is copied in ranges by several workers (see
     * {@link RangedCopy}). {@code sequential}: the destination has no offsets (a pipe, a terminal),
     * so it is written in sequence, holes as zeros.
     */
    private DataResult transfer(FileChannel in, FileChannel out, Entry e, long from, CopyProgress total, boolean sequential) {
        Stat st = e.stat();
        try (Transfers.Transfer progress = transfers.begin(e.source(), e.target(), st.size(), total)) {
            if (!st.isRegular() || sequential) {
                // A FIFO or device read as data (no offsets, no size to trust: read to its end), or a
                // destination without offsets.
                return DataResult.copied(StreamCopy.copy(in, out, progress));
            }
            if (from > 0) {
                // --resume: the first bytes are there already and were checked.
                context.cancellation().advance(from);
                long rest = context.engine().copy(new CopyRequest(in, out, from, CopyRequest.TO_END, st.size(),
                        context.options().sparse(), progress, holes(in, st), context.options().mayShareExtents()));
                return DataResult.copied(from + rest);
            }
            if (triesClone(st.dev())) {
                CloneResult clone = context.engine().cloneFile(in, out);
                if (clone.cloned()) {
                    context.cancellation().advance(st.size());
                    return DataResult.copied(st.size());
                }
                if (reflink == ReflinkMode.ALWAYS) {
                    return DataResult.failed(Diagnostic.of("failed to clone {0} from {1}", e.target(), e.source())
                            .withReason(clone.reason()));
                }
                refusedClones(st.dev());
            }
            CopyRequest.Holes holes = holes(in, st);
            long copied = RangedCopy.worthIt(context.options(), st.size(), holes)
                    ? RangedCopy.copy(context, in, out, st.size(), holes, progress)
                    : context.engine().copy(new CopyRequest(in, out, 0, CopyRequest.TO_END, st.size(), context.options().sparse(),
                            progress, holes, context.options().mayShareExtents()));
            return copiedWhole(in, e, copied);
        } catch (IOException x) {
            return failure(e, x);
        }
    }

    /**
     * The engine's count of a file's bytes, accepted unless it is short while the source still holds
     * more. A size is only what the file system says: a sysfs attribute says 4096 bytes and holds a
     * line, which GNU cp copies by reading to its end. So a short count is a failure only where the
     * source still says it is as large and a byte can still be read where the copy stopped.
     */
    private static DataResult copiedWhole(FileChannel in, Entry e, long copied) throws IOException {
        long size = e.stat().size();
        if (copied < size && in.size() >= size && in.read(ByteBuffer.allocate(1), copied) > 0) {
            // The source still holds more than the engine copied: never accept a silently short copy.
            return DataResult.failed(Diagnostic.of("error copying {0}", e.source(),
                    "short copy: " + copied + " of " + size + " bytes"));
        }
        return DataResult.copied(copied);
    }

    /** A file's data copy that failed with {@code x}: GNU's words for it, or an interruption. */
    private static DataResult failure(Entry e, IOException x) {
        if (x instanceof InterruptedIOException) {
            return DataResult.interrupted(Diagnostic.of("interrupted while copying {0}", e.source()));
        }
        if (x instanceof StreamCopy.WriteFailure) {
            return DataResult.failed(Diagnostic.of("error writing {0}", e.target(), Diagnostic.reasonOf(x.getCause())));
        }
        return DataResult.failed(Errors.isWriteSide(x)
                ? Diagnostic.of("error writing {0}", e.target(), Diagnostic.reasonOf(x))
                : Diagnostic.of("error reading {0}", e.source(), Diagnostic.reasonOf(x)));
    }

    /** Whether a file from device {@code dev} is cloned first: {@code --reflink=always}, or auto where the device has not refused. */
    private boolean triesClone(long dev) {
        return reflink != ReflinkMode.NEVER && (reflink == ReflinkMode.ALWAYS || !refusesClones(dev));
    }

    private boolean refusesClones(long dev) {
        for (long d : noClone) {
            if (d == dev) {
                return true;
            }
        }
        return false;
    }

    private synchronized void refusedClones(long dev) {
        if (!refusesClones(dev)) {
            long[] more = Arrays.copyOf(noClone, noClone.length + 1);
            more[more.length - 1] = dev;
            noClone = more;
        }
    }
}
