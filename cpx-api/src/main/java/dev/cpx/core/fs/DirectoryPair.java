package dev.cpx.core.fs;

import dev.cpx.spi.Descriptors;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A source directory and its copy, each open (one descriptor), while the entries of the one are
 * copied into the other relative to them. Whoever uses them later than the walk of the directory
 * (a file waiting for its turn to be named) {@link #retain}s them; the last {@link #release} closes both.
 *
 * <p>A pair opened relative to another ({@link Origin}) may be <em>parked</em> while only its holder
 * has it and more pairs are open than the descriptor limit leaves room for ({@link DescriptorBudget}): a
 * chain of directories as deep as GNU cp reaches (PATH_MAX) would otherwise need two descriptors a
 * level. Its descriptors are closed, and the next {@link #tryRetain} opens them again from the nearest
 * pair above that is open, never through a symbolic link the first opening did not follow, and checks
 * that each is the directory it was (device and inode); where one is not, the pair is lost and every
 * later {@link #tryRetain} fails with that: nothing below it is reached by another way.
 */
public final class DirectoryPair {

    /** How one side of a pair was opened: {@code name} in a side of {@code parent}, following a symbolic link or not. */
    public static final class Origin {
        final DirectoryPair parent;
        final boolean parentSource;
        final byte[] name;
        final boolean follow;

        public Origin(DirectoryPair parent, boolean parentSource, byte[] name, boolean follow) {
            this.parent = parent;
            this.parentSource = parentSource;
            this.name = name;
            this.follow = follow;
        }
    }

    /** {@link #users}: all released, both closed. */
    private static final int CLOSED = 0;
    /** {@link #users}: only the holder has it, both closed until the next {@link #tryRetain} ({@link #park}). */
    private static final int PARKED = -1;
    /** {@link #users}: parked, and could not be opened again as the same directories ({@link #lost}). */
    private static final int LOST = -2;
    private final Descriptors descriptors;
    /** Written only while no one else uses the pair (parked, under its monitor); published by {@link #users}. */
    private int source;
    private int target;
    /** Users (the holder included), or {@link #CLOSED}, {@link #PARKED}, {@link #LOST}. */
    private final AtomicInteger users = new AtomicInteger(1);
    /** Subdirectories waiting to be opened through the pair ({@link #await}): not users. */
    private final AtomicInteger waiting = new AtomicInteger();
    /** Where each side was opened; null where by a path (then never parked). */
    private final Origin sourceOrigin;
    private final Origin targetOrigin;
    /** The directories' devices and inodes, read when first parked: what opening them again must find. */
    private long sourceDev = -1;
    private long sourceIno;
    private long targetDev;
    private long targetIno;
    /** Why the pair could not be opened again ({@link #LOST}). */
    private IOException lost;
    /** Which side could not ({@link #LOST}): the source, else the copy. */
    private volatile boolean lostSource;
    /** The copy is in a tree being made under a staging name (see {@link #staged()}). */
    private final boolean staged;
    /** {@link #writtenCloses()}: not known yet (no file made in the copy so far). */
    public static final int CLOSES_UNKNOWN = 0;
    /** {@link #writtenCloses()}: the closes of files written in the copy may be put off. */
    public static final int CLOSES_PUT_OFF = 1;
    /** {@link #writtenCloses()}: each file written in the copy is closed at once, its error seen. */
    public static final int CLOSES_AT_ONCE = 2;

    /** Whether the closes of files written in the copy may be put off: one of the {@code CLOSES_} values. */
    private int writtenCloses = CLOSES_UNKNOWN;

    /** What entries made in the copy get, where it was made by this run; null where not learnt. */
    private NewEntries newEntries;

    private DirectoryPair(Descriptors descriptors, int source, int target, boolean staged, Origin sourceOrigin, Origin targetOrigin) {
        this.descriptors = descriptors;
        this.source = source;
        this.target = target;
        this.staged = staged;
        boolean parkable = sourceOrigin != null && targetOrigin != null;
        this.sourceOrigin = parkable ? sourceOrigin : null;
        this.targetOrigin = parkable ? targetOrigin : null;
        DescriptorBudget.opened();
    }

    /**
     * Opens {@code source} to read and {@code target} to make entries in; null when either cannot be
     * opened (then nothing stays open, and the directory is walked by its paths).
     */
    public static DirectoryPair open(Descriptors descriptors, Path source, Path target) {
        return open(descriptors, source, target, false);
    }

    /** {@link #open(Descriptors, Path, Path)}, the copy in a tree made under a staging name or not ({@link #staged()}). */
    public static DirectoryPair open(Descriptors descriptors, Path source, Path target, boolean staged) {
        int s;
        try {
            s = descriptors.openDirectory(source);
        } catch (IOException e) {
            return null;
        }
        try {
            return new DirectoryPair(descriptors, s, descriptors.openDirectoryToWrite(target), staged, null, null);
        } catch (IOException e) {
            descriptors.close(s);
            return null;
        }
    }

    public Descriptors descriptors() {
        return descriptors;
    }

    /** The source directory's descriptor. */
    public int source() {
        return source;
    }

    /** The copy's descriptor ({@code O_PATH}: to make entries in). */
    public int target() {
        return target;
    }

    /**
     * The pair made of two descriptors already open (owned by it from now on: the last
     * {@link #release} closes them).
     */
    public static DirectoryPair of(Descriptors descriptors, int source, int target, boolean staged) {
        return new DirectoryPair(descriptors, source, target, staged, null, null);
    }

    /**
     * {@link #of(Descriptors, int, int, boolean)}, each side opened as its {@link Origin} says: where
     * both are given, the pair may be parked (see the class comment).
     */
    public static DirectoryPair of(Descriptors descriptors, int source, int target, boolean staged, Origin sourceOrigin,
            Origin targetOrigin) {
        return new DirectoryPair(descriptors, source, target, staged, sourceOrigin, targetOrigin);
    }

    /**
     * Whether the copy is inside a new tree that is made under a staging name and gets its final name
     * only once complete: nothing in it is seen under its final path before then, so a file in it is
     * written under its own name at once (one exclusive create) instead of unnamed and named after.
     */
    public boolean staged() {
        return staged;
    }

    /**
     * One more user unless both are closed already: whether it is one (then it calls {@link #release}
     * once). A parked pair is opened again first; where that fails, so does this (and every later call).
     */
    public boolean tryRetain() throws IOException {
        for (;;) {
            int n = users.get();
            if (n > 0) {
                if (users.compareAndSet(n, n + 1)) {
                    return true;
                }
            } else if (n == CLOSED) {
                return false;
            } else if (unpark()) {
                return true;
            }
        }
    }

    /** One more user where it is open (not parked, not closed): whether it is one. */
    private boolean retainIfOpen() {
        for (;;) {
            int n = users.get();
            if (n <= 0) {
                return false;
            }
            if (users.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    /**
     * Whether the closes of files written in the copy may be put off ({@link WrittenCloses}):
     * {@link #CLOSES_UNKNOWN}, {@link #CLOSES_PUT_OFF} or {@link #CLOSES_AT_ONCE} (an int, not an enum:
     * read for every file made). Learnt by the first file made there; a race learns it twice, alike.
     */
    public int writtenCloses() {
        return writtenCloses;
    }

    public void writtenCloses(int known) {
        writtenCloses = known;
    }

    /**
     * What the kernel gives entries made in the copy ({@link NewEntries}): learnt where this run made
     * the copy and preserves owners or modes, before anything is made in it; null otherwise.
     */
    public NewEntries newEntries() {
        return newEntries;
    }

    public void newEntries(NewEntries known) {
        newEntries = known;
    }

    /** One more user; each calls {@link #release} once. */
    public void retain() {
        if (users.getAndIncrement() <= 0) {
            throw new IllegalStateException("directories already closed");
        }
    }

    /**
     * A subdirectory is to be opened through the pair when its turn comes; {@link #awaited} once it
     * was (or never will be). It is not a user: the pair may be parked meanwhile, and its opening
     * opens it again ({@link #tryRetain}). But while one waits, the holder's own {@link #release}
     * leaves the pair open: the next level of a chain is opened right after its parent's listing,
     * and through the open pair it costs one {@code openat} a side, not the way down from above.
     */
    public void await() {
        waiting.incrementAndGet();
    }

    /**
     * A subdirectory {@link #await}ed was opened, or never will be. Where only the holder uses the
     * pair and too many pairs are open, it is {@link #park parked} now, though others may still wait:
     * a subdirectory whose turn comes only after another's whole subtree (the second of two in a deep
     * tree) would otherwise keep it open all that time, and a chain of such levels could hold more
     * descriptors than the limit allows.
     */
    public void awaited() {
        waiting.decrementAndGet();
        if (users.get() == 1 && sourceOrigin != null && DescriptorBudget.exceeded()) {
            park();
        }
    }

    /**
     * One user less; the last closes both descriptors. Where only the holder is left, no
     * subdirectory waits to be opened through the pair ({@link #await}) and too many pairs are
     * open, a pair opened relative to another is {@link #park parked}.
     */
    public void release() {
        for (;;) {
            int n = users.get();
            if (n == PARKED || n == LOST) {
                // The holder's own release, its descriptors closed already.
                if (users.compareAndSet(n, CLOSED)) {
                    return;
                }
                continue;
            }
            if (n <= 0) {
                throw new IllegalStateException("released more often than retained");
            }
            if (!users.compareAndSet(n, n - 1)) {
                continue;
            }
            if (n == 1) {
                DescriptorBudget.closed();
                descriptors.closeLater(source);
                descriptors.closeLater(target);
            } else if (n == 2 && sourceOrigin != null && waiting.get() == 0 && DescriptorBudget.exceeded()) {
                park();
            }
            return;
        }
    }

    /**
     * Closes both descriptors while only the holder has the pair (else leaves it): the next
     * {@link #tryRetain} opens them again. Their devices and inodes are read first, once.
     */
    synchronized void park() {
        if (users.get() != 1) {
            return;
        }
        if (sourceDev == -1) {
            try {
                Stat s = Stat.of(descriptors.status(source));
                Stat t = Stat.of(descriptors.status(target));
                sourceIno = s.ino();
                targetDev = t.dev();
                targetIno = t.ino();
                sourceDev = s.dev();
            } catch (IOException | RuntimeException e) {
                return;
            }
        }
        if (!users.compareAndSet(1, PARKED)) {
            return;
        }
        DescriptorBudget.closed();
        descriptors.close(source);
        descriptors.close(target);
    }

    private static final byte[] DOT_DOT = {'.', '.'};

    /**
     * Opens this pair again where it is parked, through the {@code ..} of {@code child}, one of its
     * subdirectories' pairs, open: one {@code openat} a side, which never follows a link, instead of
     * the way down from the nearest open pair above. What a directory's end does for its parent,
     * whose end comes next, so that a deep chain of parked directories is opened again at a constant
     * cost a level. Where either is not this pair's directory (the child moved meanwhile), or cannot
     * be opened so, it stays parked, for {@link #tryRetain} to open the usual way.
     */
    public void unparkThrough(DirectoryPair child) {
        Origin from = child.sourceOrigin;
        Origin into = child.targetOrigin;
        if (users.get() != PARKED || from == null || from.parent != this || into.parent != this || !from.parentSource
                || into.parentSource) {
            return;
        }
        synchronized (this) {
            if (users.get() != PARKED) {
                return;
            }
            int s;
            try {
                s = descriptors.openDirectory(child.source, DOT_DOT, false);
            } catch (IOException | RuntimeException e) {
                return;
            }
            int t;
            try {
                t = descriptors.openDirectoryToWrite(child.target, DOT_DOT, false);
            } catch (IOException | RuntimeException e) {
                descriptors.close(s);
                return;
            }
            if (!isDirectory(s, sourceDev, sourceIno) || !isDirectory(t, targetDev, targetIno)) {
                descriptors.close(s);
                descriptors.close(t);
                return;
            }
            source = s;
            target = t;
            DescriptorBudget.opened();
            users.set(1);
        }
    }

    /** Whether {@code fd} is open on the file {@code dev}, {@code ino}. */
    private boolean isDirectory(int fd, long dev, long ino) {
        try {
            Stat now = Stat.of(descriptors.status(fd));
            return now.dev() == dev && now.ino() == ino;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Opens a parked pair again, for the caller of {@link #tryRetain} (true: it is a user now); false
     * where it was not parked (any more): the caller looks again. Throws where it cannot be opened as
     * the same directories, and from then on.
     */
    private synchronized boolean unpark() throws IOException {
        int n = users.get();
        if (n == LOST) {
            throw lost;
        }
        if (n != PARKED) {
            return false;
        }
        int s;
        int t;
        try {
            lostSource = true;
            s = reopen(true);
            lostSource = false;
            try {
                t = reopen(false);
            } catch (IOException | RuntimeException e) {
                descriptors.close(s);
                throw e;
            }
        } catch (IOException e) {
            lost = e;
            users.set(LOST);
            throw e;
        }
        source = s;
        target = t;
        DescriptorBudget.opened();
        // The holder's and the caller's.
        users.set(2);
        return true;
    }

    /**
     * One side opened again: the names from the nearest pair above that is open down to it, each
     * followed where it was when first opened (in one call, never through a link, where none was),
     * and checked to be the same directory.
     */
    private int reopen(boolean sourceSide) throws IOException {
        List<Origin> way = new ArrayList<>();
        DirectoryPair at = this;
        boolean atSource = sourceSide;
        for (;;) {
            Origin o = atSource ? at.sourceOrigin : at.targetOrigin;
            if (o == null) {
                // Never parked, so open while anything below it is: closed meanwhile, it is gone.
                throw new NoSuchFileException(null);
            }
            way.add(0, o);
            at = o.parent;
            atSource = o.parentSource;
            if (at.retainIfOpen()) {
                break;
            }
        }
        int fd;
        try {
            fd = openWay(at.fd(atSource), way, sourceSide);
        } finally {
            at.release();
        }
        if (!isDirectory(fd, sourceSide ? sourceDev : targetDev, sourceSide ? sourceIno : targetIno)) {
            descriptors.close(fd);
            // Moved or replaced since it was opened: not the directory being copied.
            throw new NoSuchFileException(PathBytes.decode(way.get(way.size() - 1).name));
        }
        return fd;
    }

    /**
     * The directory {@code way} leads to from the open directory {@code from}: in one call where no
     * name on it is followed and there are several ({@link Anchors#openWay}).
     */
    private int openWay(int from, List<Origin> way, boolean sourceSide) throws IOException {
        List<byte[]> names = new ArrayList<>(way.size());
        boolean follows = false;
        for (Origin o : way) {
            names.add(o.name);
            follows |= o.follow;
        }
        java.util.Iterator<Origin> origins = way.iterator();
        return Anchors.openWay(descriptors, from, names, !follows && way.size() > 1, !sourceSide, (in, name) -> {
            boolean follow = origins.next().follow;
            return sourceSide ? descriptors.openDirectory(in, name, follow) : descriptors.openDirectoryToWrite(in, name, follow);
        });
    }

    /** Where {@link #tryRetain} failed: whether the source (else the copy) could not be opened again as the same directory. */
    public boolean lostSource() {
        return lostSource;
    }

    /** A side's descriptor. */
    private int fd(boolean sourceSide) {
        return sourceSide ? source : target;
    }
}
