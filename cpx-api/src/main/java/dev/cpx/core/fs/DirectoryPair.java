package dev.cpx.core.fs;

import dev.cpx.spi.Descriptors;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A source directory and its copy, each open (one descriptor), while the entries of the one are
 * copied into the other relative to them. Whoever uses them later than the walk of the directory
 * (a file waiting for its turn to be named) {@link #retain}s them; the last {@link #release} closes both.
 */
public final class DirectoryPair {

    private final Descriptors descriptors;
    private final int source;
    private final int target;
    private final AtomicInteger users = new AtomicInteger(1);
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

    private DirectoryPair(Descriptors descriptors, int source, int target, boolean staged) {
        this.descriptors = descriptors;
        this.source = source;
        this.target = target;
        this.staged = staged;
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
            return new DirectoryPair(descriptors, s, descriptors.openDirectoryToWrite(target), staged);
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
        return new DirectoryPair(descriptors, source, target, staged);
    }

    /**
     * Whether the copy is inside a new tree that is made under a staging name and gets its final name
     * only once complete: nothing in it is seen under its final path before then, so a file in it is
     * written under its own name at once (one exclusive create) instead of unnamed and named after.
     */
    public boolean staged() {
        return staged;
    }

    /** One more user unless both are closed already: whether it is one (then it calls {@link #release} once). */
    public boolean tryRetain() {
        int n;
        do {
            n = users.get();
            if (n <= 0) {
                return false;
            }
        } while (!users.compareAndSet(n, n + 1));
        return true;
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

    /** One user less; the last closes both descriptors. */
    public void release() {
        int left = users.decrementAndGet();
        if (left == 0) {
            descriptors.closeLater(source);
            descriptors.closeLater(target);
        } else if (left < 0) {
            throw new IllegalStateException("released more often than retained");
        }
    }
}
