package dev.cpx.core.plan;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyListener;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.Dereference;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.FileOutcome;
import dev.cpx.api.OverwritePolicy;
import dev.cpx.core.decide.CreationModes;
import dev.cpx.core.decide.ResumeRule;
import dev.cpx.core.finish.Metadata;
import dev.cpx.core.fs.Anchors;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.fs.TempNames;
import dev.cpx.core.run.Counters;
import dev.cpx.core.run.Outcomes;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.PosixExtras;
import dev.cpx.spi.support.BufferedCopy;
import dev.cpx.spi.support.FileDescriptors;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Big files copied by several workers: the planner splits a regular file of one name above the
 * plan's split size into {@link PlanEntry#RANGE} entries, each in another chunk. A worker copies
 * its range into one staging file next to the final name ({@code .NAME.cpx-ranges}, cpx's own:
 * created without {@code O_EXCL} by whichever range comes first, never through a symbolic link,
 * refused unless it is a regular file of this user's with one name), makes the data durable, and
 * marks the range done in the plan ({@code ranges/F/I}, holding the staging file's device and
 * inode). The worker that marks the last range, or else the finish step, gives the staging file its
 * attributes (times last) and renames it into place: the file never appears half-written under its
 * final name. A range whose worker died is not marked and is copied again by the chunk's next
 * claimer. Completion asks every mark to name the staging file as it is now, so a range written
 * into another file (a worker that lost its lease and wrote after the file was complete) can never
 * make a partial file complete.
 *
 * <p>A split file's copy replaces an existing destination file (rename) rather than writing into
 * it in place; what {@code -n}, {@code -u} and {@code --resume} keep is kept, range by range.
 */
final class SplitFiles {

    /** Suffix of a staging file: not {@code .cpx-part}, whose first bytes a single-machine {@code --resume} trusts. */
    static final String STAGING = ".cpx-ranges";

    private static final String SKIPPED = "skipped";
    /** Made by the one worker that completes a split file. */
    private static final String COMPLETING = "completing";
    /** The staging file: read too, for {@code --verify}. */
    private static final Set<OpenOption> WRITE = Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE,
            StandardOpenOption.CREATE, LinkOption.NOFOLLOW_LINKS);
    private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ);
    private static final Set<OpenOption> READ_NOFOLLOW = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);

    /** One split file of the plan's list: its id, where it is, its size and its number of ranges. */
    record Split(long id, int operand, byte[] name, long size, int count) {

        static Split of(PlanEntry e) {
            return new Split(e.range().file(), e.operand(), e.name(), e.size(), e.range().count());
        }
    }

    /** Tallies of a chunk report: files, symlinks, specials, bytes, skipped, failed. */
    static final int FILES = 0;
    static final int BYTES = 3;
    static final int SKIPS = 4;
    static final int FAILS = 5;

    private final PlanDirectory plan;
    private final CopyOptions options;
    private final CopyEngine engine;
    private final PosixExtras extras;
    private final int uid;
    /** {@code --verify}'s two buffers, made at its first range (a worker copies its ranges one at a time). */
    private ByteBuffer[] verifyBuffers;

    SplitFiles(PlanDirectory plan, CopyOptions options, CopyEngine engine, PosixExtras extras) throws IOException {
        this.plan = plan;
        this.options = options;
        this.engine = engine;
        this.extras = extras;
        this.uid = PlanDirectory.myUid();
    }

    static void write(DataOutputStream out, Split s) throws IOException {
        out.writeByte('s');
        out.writeLong(s.id());
        out.writeInt(s.operand());
        PlanNames.write(out, s.name());
        out.writeLong(s.size());
        out.writeInt(s.count());
    }

    static void writeEnd(DataOutputStream out) throws IOException {
        out.writeByte(0);
    }

    /** The next split file of the list, or null at its end. */
    static Split read(DataInputStream in) throws IOException {
        byte b = in.readByte();
        if (b == 0) {
            return null;
        }
        if (b != 's') {
            throw new IOException("bad list of split files");
        }
        long id = in.readLong();
        int operand = in.readInt();
        byte[] name = PlanNames.read(in);
        return new Split(id, operand, name, in.readLong(), in.readInt());
    }

    /** The source of {@code s} and whether it is looked at through a symbolic link. */
    private Path source(int operand, byte[] name) {
        return SafeDirectories.shown(plan.source(operand), name);
    }

    /** The source's attributes, or null when they cannot be read (reported). */
    private Stat sourceStat(Path src, byte[] name, Path target, AtomicLongArray counts, List<FileOutcome> failures) {
        try {
            return Stat.of(src, follow(name));
        } catch (IOException x) {
            fail(counts, failures, src, target, Diagnostic.of("cannot stat {0}", src, Diagnostic.reasonOf(x)));
            return null;
        }
    }

    private boolean follow(byte[] name) {
        Dereference d = options.effectiveDereference();
        return d == Dereference.ALWAYS || (name.length == 0 && d != Dereference.NEVER);
    }

    /**
     * Copies the range of {@code e} to {@code target}'s staging file and marks it done, then
     * completes the file if every range is done. The copy is reached at {@code at} (its directory's
     * {@code /proc/self/fd} path, see {@link SafeDirectories#reach}) and shown as {@code target}.
     * Outcomes go to {@code counts} and {@code failures}.
     */
    void copyRange(PlanEntry e, Path at, Path target, AtomicLongArray counts, List<FileOutcome> failures) {
        PlanEntry.Range r = e.range();
        Path src = source(e.operand(), e.name());
        Stat st = sourceStat(src, e.name(), target, counts, failures);
        if (st == null) {
            return;
        }
        if (!st.isRegular() || st.size() != e.size()) {
            fail(counts, failures, src, target, Diagnostic.of("{0} changed since it was planned", src,
                    (st.isRegular() ? "size " + st.size() : "no regular file") + ", planned " + e.size() + " bytes"));
            return;
        }
        Stat existing = Stat.lstatOrNull(at);
        if (existing != null) {
            if (!existing.isRegular()) {
                fail(counts, failures, src, target, Diagnostic.of("cannot overwrite {0}", target,
                        "a file copied in ranges replaces only a regular file"));
                return;
            }
            if (kept(st, existing)) {
                try {
                    mark(r, SKIPPED);
                } catch (IOException x) {
                    fail(counts, failures, src, target, Diagnostic.of("cannot mark a range of {0} done", target, Diagnostic.reasonOf(x)));
                    return;
                }
                if (r.index() == 0) {
                    counts.incrementAndGet(SKIPS);
                }
                return;
            }
        }
        Path staging = TempNames.of(at, STAGING);
        try (FileChannel out = openStaging(staging, TempNames.of(target, STAGING));
                FileChannel in = FileChannel.open(src, follow(e.name()) ? READ : READ_NOFOLLOW)) {
            Stat made = fstat(out, staging);
            if (out.size() > e.size()) {
                // Left by another copy of a larger file: nothing of this copy lies past its size.
                out.truncate(e.size());
            }
            extend(out, e.size());
            long copied = engine.copy(new CopyRequest(in, out, r.offset(), r.length(), e.size(), options.sparse(), b -> { },
                    CopyRequest.Holes.UNKNOWN, options.mayShareExtents()));
            if (copied != r.length()) {
                throw new IOException("short copy: " + copied + " of " + r.length() + " bytes");
            }
            if (options.verify() && !sameRange(in, out, r.offset(), r.length())) {
                fail(counts, failures, src, target, Diagnostic.of("verification of {0} failed", target,
                        "bytes " + r.offset() + " to " + (r.offset() + r.length()) + " differ from the source"));
                return;
            }
            // Durable before it is marked: a mark means the bytes are in, whatever crashes later.
            out.force(false);
            mark(r, mark(made, st));
            counts.addAndGet(BYTES, copied);
        } catch (IOException x) {
            fail(counts, failures, src, target, Diagnostic.of("error copying {0} to {1}", src, target)
                    .withReason(Diagnostic.reasonOf(x)));
            return;
        } catch (RuntimeException x) {
            // A bug (in an engine, say): this range's failure, not the worker's end.
            fail(counts, failures, src, target, Diagnostic.of("error copying {0} to {1}", src, target)
                    .withReason(x.toString()));
            return;
        }
        complete(Split.of(e), at, target, false, counts, failures);
    }

    /** Whether an existing complete destination is kept as it is ({@code -n}, {@code -u}, {@code --resume}'s rule). */
    private boolean kept(Stat source, Stat existing) {
        return options.overwrite() == OverwritePolicy.NO_CLOBBER
                || (options.update() && existing.mtime().compareTo(source.mtime()) >= 0)
                || ResumeRule.complete(source, existing, options, () -> false);
    }

    /**
     * Completes split file {@code s} at {@code target} when every range is marked as copied into its
     * staging file as it is now: attributes (times last), then the rename into place. Of the workers
     * that find it complete, one does it (the one that makes {@code ranges/F/completing}); should it
     * die meanwhile, finish ({@code byFinish}) does it. False when it is not complete, or another
     * worker completes it.
     */
    boolean complete(Split s, Path at, Path target, boolean byFinish, AtomicLongArray counts, List<FileOutcome> failures) {
        Path staging = TempNames.of(at, STAGING);
        Stat made = Stat.lstatOrNull(staging);
        if (made == null || !ours(made)) {
            return false;
        }
        Path src = source(s.operand(), s.name());
        Stat st = sourceStat(src, s.name(), target, counts, failures);
        if (st == null) {
            return false;
        }
        String expected = mark(made, st);
        for (int i = 0; i < s.count(); i++) {
            try {
                if (!expected.equals(Files.readString(plan.ranges(s.id()).resolve(Integer.toString(i)), StandardCharsets.US_ASCII))) {
                    return false;
                }
            } catch (IOException x) {
                return false;
            }
        }
        if (!byFinish) {
            try {
                Files.createFile(plan.ranges(s.id()).resolve(COMPLETING));
            } catch (FileAlreadyExistsException x) {
                return false;
            } catch (IOException x) {
                fail(counts, failures, src, target, Diagnostic.of("cannot complete {0}", target, Diagnostic.reasonOf(x)));
                return false;
            }
        }
        long failedBefore = counts.get(FAILS);
        Outcomes outcomes = new Outcomes(new CopyListener() {
            @Override
            public void entryDone(FileOutcome outcome) {
                if (outcome.status() == FileOutcome.Status.FAILED) {
                    counts.incrementAndGet(FAILS);
                    failures.add(outcome);
                }
            }
        }, new Counters());
        // Sized and given its attributes through its own descriptor (its /proc/self/fd path, which
        // leads to the file opened whatever is put in its name's place), the file checked first.
        try (FileChannel f = FileChannel.open(staging, Set.of(StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))) {
            Stat now = fstat(f, staging);
            if (!ours(now) || now.ino() != made.ino() || now.dev() != made.dev()) {
                return false;
            }
            if (f.size() < s.size()) {
                // Not sized when made, and the last range ended in a hole an engine kept: a zero byte there.
                f.write(ByteBuffer.allocate(1), s.size() - 1);
            }
            Path self = FileDescriptors.availability().available() ? Anchors.self(FileDescriptors.of(f)) : staging;
            Metadata metadata = PlanAttributes.of(options, extras, outcomes);
            if (!options.preserves(Attribute.MODE)) {
                metadata.chmod(src, self, target, CreationModes.of(st, options) & 0777 & ~plan.umask());
            }
            metadata.apply(src, null, self, target, st, false, metadata.copiesXattrs(), 0, true);
        } catch (IOException x) {
            fail(counts, failures, src, target, Diagnostic.of("error writing {0}", target, Diagnostic.reasonOf(x)));
            return false;
        }
        if (counts.get(FAILS) != failedBefore) {
            return false;
        }
        try {
            Files.move(staging, at, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (NoSuchFileException x) {
            // Completed by another worker meanwhile.
            return false;
        } catch (IOException x) {
            fail(counts, failures, src, target, Diagnostic.of("cannot create regular file {0}", target, Diagnostic.reasonOf(x)));
            return false;
        }
        counts.incrementAndGet(FILES);
        return true;
    }

    /**
     * The finish step's look at split file {@code s}: completed if every range is in; a staging file
     * left by a copy after the file was complete is removed; else the file is named as not copied.
     */
    void finish(Split s, Path at, Path target, AtomicLongArray counts, List<FileOutcome> failures) {
        if (complete(s, at, target, true, counts, failures)) {
            return;
        }
        Path src = source(s.operand(), s.name());
        Path staging = TempNames.of(at, STAGING);
        Stat made = Stat.lstatOrNull(staging);
        Stat existing = Stat.lstatOrNull(at);
        Stat st = null;
        try {
            st = Stat.of(src, follow(s.name()));
        } catch (IOException x) {
            // named below as not copied
        }
        boolean done = existing != null && st != null && existing.isRegular() && existing.size() == s.size()
                && (kept(st, existing) || options.overwrite() == OverwritePolicy.NO_CLOBBER);
        if (done) {
            if (made != null && ours(made)) {
                try {
                    Files.deleteIfExists(staging);
                } catch (IOException x) {
                    // a leftover, harmless
                }
            }
            return;
        }
        int marked = 0;
        for (int i = 0; i < s.count(); i++) {
            if (Files.exists(plan.ranges(s.id()).resolve(Integer.toString(i)), LinkOption.NOFOLLOW_LINKS)) {
                marked++;
            }
        }
        fail(counts, failures, src, target, Diagnostic.of("{0} is not complete", target, marked == s.count()
                ? "its ranges were copied from different versions of the source, or into different files: copy it again"
                : marked + " of " + s.count() + " ranges copied"));
    }

    /**
     * What a range's mark holds: the staging file it was copied into (device, inode) and the
     * source's modification time then, so ranges copied from different versions of a source that
     * changed meanwhile never make a complete file.
     */
    private static String mark(Stat staging, Stat source) {
        return staging.dev() + " " + staging.ino() + " " + source.mtime().to(java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /** Whether a staging file is cpx's own: a regular file of this user's with one name. */
    private boolean ours(Stat st) {
        return st.isRegular() && st.uid() == uid && st.nlink() == 1;
    }

    /** Opens (makes) the staging file reached at {@code staging}, shown as {@code shown}. */
    private FileChannel openStaging(Path staging, Path shown) throws IOException {
        Stat before = Stat.lstatOrNull(staging);
        if (before != null && !ours(before)) {
            throw new IOException("refusing " + PlanDirectory.show(shown) + ": not a regular file of this user's with one name");
        }
        FileChannel out = FileChannel.open(staging, WRITE, PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------")));
        try {
            if (!ours(fstat(out, staging))) {
                throw new IOException("refusing " + PlanDirectory.show(shown) + ": not a regular file of this user's with one name");
            }
        } catch (IOException x) {
            out.close();
            throw x;
        }
        return out;
    }

    /** The attributes of the open file (by its path where descriptors are out of reach). */
    private static Stat fstat(FileChannel channel, Path path) throws IOException {
        if (FileDescriptors.availability().available()) {
            return Stat.stat(Anchors.self(FileDescriptors.of(channel)));
        }
        return Stat.lstat(path);
    }

    /**
     * Makes the open staging file {@code size} bytes long if it is shorter ({@code ftruncate} of the
     * open file: a hole until the ranges fill it). Where the descriptor is out of reach it is left
     * to grow as ranges land, and completion gives it its size (see {@link #complete}).
     */
    private static void extend(FileChannel channel, long size) throws IOException {
        if (channel.size() >= size || !FileDescriptors.availability().available()) {
            return;
        }
        try (RandomAccessFile f = new RandomAccessFile("/proc/self/fd/" + FileDescriptors.of(channel), "rw")) {
            if (f.length() < size) {
                f.setLength(size);
            }
        }
    }

    private void mark(PlanEntry.Range r, String content) throws IOException {
        Path dir = plan.ranges(r.file());
        try {
            Files.createDirectory(dir);
        } catch (FileAlreadyExistsException x) {
            // made by another range's worker
        }
        PlanDirectory.writeAtomically(dir.resolve(Integer.toString(r.index())), content.getBytes(StandardCharsets.US_ASCII));
    }

    /** {@code --verify} of one range: the same bytes in both files. */
    private boolean sameRange(FileChannel a, FileChannel b, long position, long length) throws IOException {
        if (verifyBuffers == null) {
            verifyBuffers = new ByteBuffer[] {ByteBuffer.allocateDirect(1 << 20), ByteBuffer.allocateDirect(1 << 20)};
        }
        ByteBuffer x = verifyBuffers[0];
        ByteBuffer y = verifyBuffers[1];
        for (long at = position, end = position + length; at < end; ) {
            int common = Math.min(BufferedCopy.readAt(a, x, at, end), BufferedCopy.readAt(b, y, at, end));
            if (common <= 0) {
                return false;
            }
            x.limit(common);
            y.limit(common);
            if (!x.equals(y)) {
                return false;
            }
            at += common;
        }
        return true;
    }

    private static void fail(AtomicLongArray counts, List<FileOutcome> failures, Path src, Path target, Diagnostic why) {
        counts.incrementAndGet(FAILS);
        failures.add(FileOutcome.failed(EntryKind.FILE, src, target, why));
    }
}
