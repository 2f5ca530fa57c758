package dev.cpx.contract;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyListener;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.CopySummary;
import dev.cpx.api.Cpx;
import dev.cpx.api.EngineRegistry;
import dev.cpx.api.FileOutcome;
import dev.cpx.core.fs.TempNames;
import dev.cpx.spi.Availability;
import dev.cpx.spi.CloneResult;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.CopyRequest;
import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.function.LongPredicate;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Behaviour of whole copies (the scheduler) with one engine: every engine module runs these with
 * its engine, so each behaviour is proven for every engine.
 */
public abstract class TreeCopyContract {

    @TempDir
    protected Path dir;

    /** The engine under test. */
    protected abstract CopyEngine engine();

    protected Cpx cpx() {
        return Cpx.create(EngineRegistry.of(List.of(engine()), EngineRegistry.discoverExtras()));
    }

    protected CopyOptions.Builder options() {
        return CopyOptions.builder().engine(engine().id());
    }

    /** Outcomes heard during one copy. */
    protected static class Recorder implements CopyListener {
        public final List<FileOutcome> outcomes = new CopyOnWriteArrayList<>();

        @Override
        public void entryDone(FileOutcome outcome) {
            outcomes.add(outcome);
        }

        public List<String> failures() {
            return outcomes.stream().filter(o -> o.status() == FileOutcome.Status.FAILED)
                    .map(o -> o.diagnostic().toString()).toList();
        }
    }

    protected CopySummary copy(List<Path> sources, Path target, CopyOptions options, Recorder recorder) throws Exception {
        return cpx().copy(sources, target, options, recorder);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 16})
    void copiesATreeExactly(int jobs) throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Path dst = dir.resolve("dst");
        Recorder r = new Recorder();
        CopySummary s = copy(List.of(src), dst, options().recursive(true).jobs(jobs).build(), r);
        assertEquals(List.of(), r.failures());
        assertTrue(s.succeeded());
        Trees.assertSameTree(src, dst, Detail.MODE);
        assertEquals(Trees.describe(src).size(), s.files() + s.directories() + s.symlinks());
    }

    /**
     * When a copy returns, none of its files is open any more: the descriptors whose close an engine
     * put off ({@link dev.cpx.spi.Descriptors#channelClosedLater}) are closed by the run's end, and so
     * are its directories, also into an existing directory and with {@code -p}.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 3, 16})
    void leavesNoDescriptorOpen(int jobs) throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Path dst = Files.createDirectory(dir.resolve("dst"));
        Recorder r = new Recorder();
        assertTrue(copy(List.of(src), dir.resolve("new"), options().recursive(true).jobs(jobs).build(), r).succeeded());
        assertTrue(copy(List.of(src), dst, options().recursive(true).jobs(jobs).preserve(Attribute.MODE, Attribute.TIMESTAMPS)
                .build(), r).succeeded());
        assertEquals(List.of(), r.failures());
        assertEquals(List.of(), openBelow(dir));
    }

    /** What this process has open below {@code root}, by /proc/self/fd. */
    private static List<Path> openBelow(Path root) throws IOException {
        List<Path> open = new java.util.ArrayList<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    Path to = Files.readSymbolicLink(fd);
                    if (to.startsWith(root)) {
                        open.add(to);
                    }
                } catch (IOException e) {
                    // closed meanwhile (the listing's own descriptor among them)
                }
            }
        }
        return open;
    }

    @Test
    void leavesNoTemporaryFiles() throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Path dst = dir.resolve("dst");
        copy(List.of(src), dst, options().recursive(true).build(), new Recorder());
        try (Stream<Path> walk = Files.walk(dst)) {
            assertEquals(List.of(), walk.filter(p -> p.getFileName() != null && TempNames.isTemp(p.getFileName())).toList());
        }
    }

    @Test
    void copiesIntoAnExistingDirectory() throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Path existing = Files.createDirectory(dir.resolve("existing"));
        copy(List.of(src), existing, options().recursive(true).build(), new Recorder());
        Trees.assertSameTree(src, existing.resolve("src"), Detail.MODE);
    }

    @Test
    void newFilesGetTheSourceModeMaskedByTheUmask() throws Exception {
        Path src = Files.createDirectory(dir.resolve("src"));
        Path f = Files.write(src.resolve("f"), new byte[] {1});
        Files.setAttribute(f, "unix:mode", 04777);
        Path dst = dir.resolve("dst");
        copy(List.of(src), dst, options().recursive(true).build(), new Recorder());
        int umask = dev.cpx.core.fs.Umask.get();
        assertEquals(0777 & ~umask, (Integer) Files.getAttribute(dst.resolve("f"), "unix:mode") & 07777,
                "set-uid is dropped and the umask applies, as with GNU cp without -p");
    }

    @Test
    void readOnlySourceDirectoriesStillCopy() throws Exception {
        Path src = Files.createDirectory(dir.resolve("src"));
        Path ro = Files.createDirectory(src.resolve("ro"));
        Files.write(ro.resolve("inside"), new byte[] {5});
        Files.setAttribute(ro, "unix:mode", 0555);
        Path dst = dir.resolve("dst");
        Recorder r = new Recorder();
        copy(List.of(src), dst, options().recursive(true).build(), r);
        assertEquals(List.of(), r.failures());
        assertArrayEquals(new byte[] {5}, Files.readAllBytes(dst.resolve("ro/inside")));
        assertEquals(0555 & ~dev.cpx.core.fs.Umask.get(), (Integer) Files.getAttribute(dst.resolve("ro"), "unix:mode") & 07777);
    }

    @Test
    void preservesModeOwnerAndNanosecondTimes() throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Path f = src.resolve("small.txt");
        Files.setAttribute(f, "unix:mode", 04751);
        FileTime t = FileTime.from(Instant.ofEpochSecond(1_500_000_000L, 123_456_789));
        Files.setLastModifiedTime(f, t);
        Files.getFileAttributeView(src.resolve("a"), java.nio.file.attribute.BasicFileAttributeView.class)
                .setTimes(FileTime.from(Instant.ofEpochSecond(1_400_000_000L, 987_654_321)), null, null);
        Object atimeBefore = Files.getAttribute(f, "lastAccessTime");
        Path dst = dir.resolve("dst");
        Recorder r = new Recorder();
        copy(List.of(src), dst, options().recursive(true)
                .preserve(Attribute.MODE, Attribute.OWNERSHIP, Attribute.TIMESTAMPS).build(), r);
        assertEquals(List.of(), r.failures());
        // The access time as it was when the copy looked at the file (reading a file may move its atime,
        // so this comes before the comparison below reads the copies).
        assertEquals(atimeBefore, Files.getAttribute(dst.resolve("small.txt"), "lastAccessTime"));
        Trees.assertSameTree(src, dst, Detail.MODE, Detail.MTIME, Detail.OWNER);
        assertEquals(t, Files.getLastModifiedTime(dst.resolve("small.txt")));
    }

    @Test
    void preservesTheTimesOfSymbolicLinks() throws Exception {
        Path src = Files.createDirectory(dir.resolve("src"));
        Path link = Files.createSymbolicLink(src.resolve("l"), Path.of("nowhere"));
        FileTime t = FileTime.from(Instant.ofEpochSecond(1_300_000_000L, 111_222_333));
        // touch, not NIO: JDK 17 sets the times of links to the microsecond only.
        Process touch = new ProcessBuilder("touch", "-h", "-d", "@1300000000.111222333", "l").directory(src.toFile()).start();
        assertEquals(0, touch.waitFor());
        assertEquals(t, Files.getLastModifiedTime(link, LinkOption.NOFOLLOW_LINKS));
        Path dst = dir.resolve("dst");
        copy(List.of(src), dst, options().recursive(true).preserve(Attribute.TIMESTAMPS).build(), new Recorder());
        assertEquals(t, Files.getLastModifiedTime(dst.resolve("l"), LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void overwritesAnExistingFileInPlace() throws Exception {
        Path src = Files.writeString(dir.resolve("src"), "new content");
        Path dst = Files.writeString(dir.resolve("dst"), "old content that is longer");
        Files.setAttribute(dst, "unix:mode", 0640);
        Path hardLink = Files.createLink(dir.resolve("other-name"), dst);
        Object inode = Files.getAttribute(dst, "unix:ino");
        Recorder r = new Recorder();
        copy(List.of(src), dst, options().build(), r);
        assertEquals(List.of(), r.failures());
        assertEquals("new content", Files.readString(dst));
        assertEquals(inode, Files.getAttribute(dst, "unix:ino"));
        assertEquals("new content", Files.readString(hardLink));
        assertEquals(0640, (Integer) Files.getAttribute(dst, "unix:mode") & 07777, "an overwritten file keeps its mode");
    }

    @Test
    void refusesToCopyAFileOntoItself() throws Exception {
        Path f = Files.writeString(dir.resolve("f"), "precious");
        Path link = Files.createSymbolicLink(dir.resolve("link"), f.getFileName());
        Path hard = Files.createLink(dir.resolve("hard"), f);
        for (Path target : List.of(f, link, hard)) {
            Recorder r = new Recorder();
            CopySummary s = copy(List.of(f), target, options().build(), r);
            assertEquals(1, s.failed());
            assertTrue(r.failures().get(0).contains("are the same file"), r.failures().toString());
            assertEquals("precious", Files.readString(f));
        }
    }

    @Test
    void copiesADirectoryIntoItselfUpToTheCopyLikeGnuCp() throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Path inside = src.resolve("a/inside");
        Recorder r = new Recorder();
        CopySummary s = copy(List.of(src), inside, options().recursive(true).build(), r);
        assertEquals(1, s.failed(), r.failures().toString());
        assertEquals("cannot copy a directory, " + dev.cpx.api.ShellQuote.quote(src) + ", into itself, "
                + dev.cpx.api.ShellQuote.quote(inside), r.failures().get(0));
        // GNU cp goes through each directory in inode order: entries before the way to the copy are
        // copied whole, the way down is followed, and each directory on it stops there.
        long copyIno = (Long) Files.getAttribute(inside, "unix:ino");
        long aIno = (Long) Files.getAttribute(src.resolve("a"), "unix:ino");
        for (Path top : list(src)) {
            long ino = (Long) Files.getAttribute(top, "unix:ino", LinkOption.NOFOLLOW_LINKS);
            boolean expected = ino <= aIno;
            assertEquals(expected, Files.exists(inside.resolve(top.getFileName()), LinkOption.NOFOLLOW_LINKS), top::toString);
        }
        for (Path child : list(src.resolve("a"))) {
            long ino = (Long) Files.getAttribute(child, "unix:ino", LinkOption.NOFOLLOW_LINKS);
            boolean expected = ino < copyIno;
            assertEquals(expected, Files.exists(inside.resolve("a").resolve(child.getFileName()), LinkOption.NOFOLLOW_LINKS),
                    child::toString);
        }
        assertFalse(Files.exists(inside.resolve("a/inside")), "the copy is not copied into itself");
    }

    private static List<Path> list(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.toList();
        }
    }

    @Test
    void omitsDirectoriesWithoutRecursion() throws Exception {
        Path src = Files.createDirectory(dir.resolve("d"));
        Path file = Files.writeString(dir.resolve("file"), "x");
        Path target = Files.createDirectory(dir.resolve("t"));
        Recorder r = new Recorder();
        CopySummary s = copy(List.of(src, file), target, options().build(), r);
        assertEquals(1, s.failed());
        assertEquals(1, s.files());
        assertTrue(r.failures().get(0).startsWith("-r not specified; omitting directory"), r.failures().toString());
        assertFalse(Files.exists(target.resolve("d")));
        assertEquals("x", Files.readString(target.resolve("file")));
    }

    @Test
    void aFailedEntryDoesNotStopTheOthers() throws Exception {
        Path src = Files.createDirectory(dir.resolve("src"));
        for (int i = 0; i < 50; i++) {
            Files.writeString(src.resolve("f" + i), "data " + i);
        }
        Files.createSymbolicLink(src.resolve("broken"), Path.of("missing"));
        Path dst = dir.resolve("dst");
        Recorder r = new Recorder();
        CopySummary s = copy(List.of(src), dst, options().recursive(true)
                .dereference(dev.cpx.api.Dereference.ALWAYS).jobs(4).build(), r);
        assertEquals(1, s.failed(), r.failures().toString());
        assertEquals(50, s.files());
        assertTrue(r.failures().get(0).startsWith("cannot stat '"), r.failures().toString());
        assertEquals("data 49", Files.readString(dst.resolve("f49"), StandardCharsets.US_ASCII));
    }

    @Test
    void followsLinksWithDereference() throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Files.delete(src.resolve("dangling"));
        Path dst = dir.resolve("dst");
        Recorder r = new Recorder();
        copy(List.of(src), dst, options().recursive(true).dereference(dev.cpx.api.Dereference.ALWAYS).build(), r);
        assertEquals(List.of(), r.failures());
        assertFalse(Files.isSymbolicLink(dst.resolve("rel-link")));
        assertEquals("hello\n", Files.readString(dst.resolve("rel-link")));
        assertTrue(Files.isDirectory(dst.resolve("dir-link/c"), LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void neverChangesTheSource() throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        var before = Trees.describe(src, Detail.MODE, Detail.MTIME, Detail.OWNER);
        copy(List.of(src), dir.resolve("dst"), options().recursive(true).jobs(8).build(), new Recorder());
        copy(List.of(src), dir.resolve("dst"), options().recursive(true).jobs(8).build(), new Recorder());
        assertEquals(before, Trees.describe(src, Detail.MODE, Detail.MTIME, Detail.OWNER));
    }

    /** What a {@link RecordingEngine} does before a request at {@code position}; may fail it. */
    private interface BeforeRequest {
        void at(long position) throws IOException;
    }

    /** What a {@link RecordingEngine} does before {@code request}; may fail it. */
    private interface BeforeEach {
        void before(CopyRequest request) throws IOException;
    }

    /** Hears failures only: trouble-free copies are not told to it ({@link CopyListener#hearsEveryCopy}). */
    private static final class FailuresOnly extends Recorder {
        @Override
        public boolean hearsEveryCopy() {
            return false;
        }
    }

    /** The files a listener was told were copied. */
    private static List<Path> copiedFiles(Recorder r) {
        return r.outcomes.stream().filter(o -> o.status() == FileOutcome.Status.COPIED && o.kind() == dev.cpx.api.EntryKind.FILE)
                .map(FileOutcome::target).toList();
    }

    /** Hears every copy, its start too. */
    private static final class EveryCopy extends Recorder {
        final List<Path> started = new CopyOnWriteArrayList<>();

        @Override
        public void starting(dev.cpx.api.EntryKind kind, Path source, Path target, Path backup) {
            started.add(target);
        }
    }

    private static Path smallFiles(Path src, int n) throws IOException {
        Files.createDirectories(src.resolve("sub"));
        for (int i = 0; i < n; i++) {
            Files.writeString(src.resolve((i % 2 == 0 ? "" : "sub/") + "f" + i), "data " + i);
        }
        Files.write(src.resolve("sub/bad"), new byte[777]);
        return src;
    }

    /**
     * A file whose copy fails in a new tree (the common case, which the scheduler copies with the least
     * work where no one hears each copy) is reported once, as GNU cp reports it, and nothing of it is
     * left; the others are copied and told to a listener that hears every copy, not to one that does not.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aFileWhoseCopyFailsInANewTreeIsReportedOnceAndNothingOfItIsLeft(boolean hearsEveryCopy) throws Exception {
        Path src = smallFiles(dir.resolve("src"), 40);
        RecordingEngine engine = new RecordingEngine((CopyRequest r) -> {
            if (r.fileSize() == 777) {
                throw new IOException("Input/output error");
            }
        });
        Recorder r = hearsEveryCopy ? new EveryCopy() : new FailuresOnly();
        Path dst = dir.resolve("dst");
        CopySummary s = engine.copy(List.of(src), dst, options().recursive(true).jobs(3)
                .reflink(dev.cpx.api.ReflinkMode.NEVER).build(), r);
        assertEquals(List.of("error reading '" + src.resolve("sub/bad") + "': Input/output error"), r.failures());
        assertEquals(40, s.files());
        assertEquals(1, s.failed());
        assertFalse(Files.exists(dst.resolve("sub/bad"), LinkOption.NOFOLLOW_LINKS));
        Files.delete(src.resolve("sub/bad"));
        Trees.assertSameTree(src, dst, Detail.MODE);
        assertEquals(hearsEveryCopy ? 40 : 0, copiedFiles(r).size());
        if (r instanceof EveryCopy every) {
            assertEquals(41, every.started.size(), "every file's start, the failed one's too");
        }
    }

    /**
     * A copy that fails part way, once, in a new tree where no one hears each copy (one worker: each
     * file is made in its turn; no clones: the same path on every file system): reported once, as
     * GNU cp reports it and without a second try, nothing of the file left, the others whole.
     */
    @Test
    void aFileWhoseCopyFailsPartWayIsReportedAndNothingOfItIsLeft() throws Exception {
        Path src = smallFiles(dir.resolve("src"), 10);
        java.util.concurrent.atomic.AtomicInteger tries = new java.util.concurrent.atomic.AtomicInteger();
        RecordingEngine engine = new RecordingEngine((CopyRequest r) -> {
            if (r.fileSize() == 777 && tries.incrementAndGet() == 1) {
                r.target().write(java.nio.ByteBuffer.wrap(new byte[100]));
                throw new IOException("Input/output error");
            }
        });
        Recorder r = new FailuresOnly();
        Path dst = dir.resolve("dst");
        CopySummary s = engine.copy(List.of(src), dst, options().recursive(true).jobs(1)
                .reflink(dev.cpx.api.ReflinkMode.NEVER).build(), r);
        assertEquals(1, tries.get(), "no second try");
        assertEquals(List.of("error reading '" + src.resolve("sub/bad") + "': Input/output error"), r.failures());
        assertEquals(List.of(), copiedFiles(r), "no file's copy told to a listener that does not hear them");
        assertEquals(10, s.files());
        assertFalse(Files.exists(dst.resolve("sub/bad"), LinkOption.NOFOLLOW_LINKS));
        Files.delete(src.resolve("sub/bad"));
        Trees.assertSameTree(src, dst, Detail.MODE);
    }

    /** The engine under test, recording where each request starts, doing {@code before} first. */
    private final class RecordingEngine implements CopyEngine {
        final List<Long> positions = new CopyOnWriteArrayList<>();
        final List<Long> lengths = new CopyOnWriteArrayList<>();
        private final BeforeEach before;

        RecordingEngine(LongPredicate fails) {
            this((long p) -> {
                if (fails.test(p)) {
                    throw new IOException("Input/output error");
                }
            });
        }

        RecordingEngine(BeforeRequest before) {
            this.before = r -> before.at(r.position());
        }

        RecordingEngine(BeforeEach before) {
            this.before = before;
        }

        @Override
        public String id() {
            return engine().id();
        }

        @Override
        public String description() {
            return engine().description();
        }

        @Override
        public Availability availability() {
            return engine().availability();
        }

        @Override
        public long copy(CopyRequest request) throws IOException {
            positions.add(request.position());
            lengths.add(request.length());
            before.before(request);
            return engine().copy(request);
        }

        @Override
        public CloneResult cloneFile(FileChannel source, FileChannel target) throws IOException {
            return engine().cloneFile(source, target);
        }

        CopySummary copy(List<Path> sources, Path target, CopyOptions options, Recorder recorder) throws Exception {
            return Cpx.create(EngineRegistry.of(List.of(this), EngineRegistry.discoverExtras())).copy(sources, target, options,
                    recorder);
        }
    }

    private static final long RANGE = 64 << 10;

    @Test
    void aLargeFileIsCopiedInRangesBySeveralWorkers() throws Exception {
        Path src = Files.createDirectory(dir.resolve("src"));
        byte[] data = Trees.randomBytes((int) (5 * RANGE + 1234), 5);
        Files.write(src.resolve("big"), data);
        Files.write(src.resolve("small"), new byte[] {1, 2, 3});
        RecordingEngine engine = new RecordingEngine(p -> false);
        Recorder r = new Recorder();
        CopySummary s = engine.copy(List.of(src), dir.resolve("dst"), options().recursive(true).jobs(4).rangeSize(RANGE)
                .reflink(dev.cpx.api.ReflinkMode.NEVER).build(), r);
        assertEquals(List.of(), r.failures());
        assertTrue(s.succeeded());
        assertArrayEquals(data, Files.readAllBytes(dir.resolve("dst/big")));
        assertEquals(List.of(0L, 0L, RANGE, 2 * RANGE, 3 * RANGE, 4 * RANGE, 5 * RANGE, (long) data.length),
                engine.positions.stream().sorted().toList(),
                "the small file whole; the big one in six ranges, then from its size to its end (had it grown)");
        assertEquals(2, engine.lengths.stream().filter(l -> l == CopyRequest.TO_END).count());
        assertTrue(engine.lengths.contains(1234L), engine.lengths::toString);
        Trees.assertSameTree(src, dir.resolve("dst"), Detail.MODE);
        try (Stream<Path> walk = Files.walk(dir.resolve("dst"))) {
            assertEquals(List.of(), walk.filter(p -> TempNames.isTemp(p.getFileName())).toList());
        }
    }

    @Test
    void aFileThatGrowsWhileCopiedInRangesGetsItsNewEnd() throws Exception {
        Path src = Files.createDirectory(dir.resolve("src"));
        byte[] data = Trees.randomBytes((int) (3 * RANGE), 7);
        byte[] more = Trees.randomBytes(5000, 8);
        Path big = Files.write(src.resolve("big"), data);
        RecordingEngine engine = new RecordingEngine((long p) -> {
            if (p == 2 * RANGE) {
                Files.write(big, more, java.nio.file.StandardOpenOption.APPEND);
            }
        });
        Recorder r = new Recorder();
        engine.copy(List.of(src), dir.resolve("dst"), options().recursive(true).jobs(2).rangeSize(RANGE)
                .reflink(dev.cpx.api.ReflinkMode.NEVER).build(), r);
        assertEquals(List.of(), r.failures());
        assertArrayEquals(Files.readAllBytes(big), Files.readAllBytes(dir.resolve("dst/big")));
        assertEquals(data.length + more.length, Files.size(dir.resolve("dst/big")));
    }

    @Test
    void aRangeThatFailsFailsItsFileAndLeavesNoPartOfIt() throws Exception {
        Path src = Files.createDirectory(dir.resolve("src"));
        Files.write(src.resolve("big"), Trees.randomBytes((int) (6 * RANGE), 6));
        Files.write(src.resolve("small"), new byte[] {1, 2, 3});
        RecordingEngine engine = new RecordingEngine(p -> p == 2 * RANGE);
        Recorder r = new Recorder();
        Path dst = dir.resolve("dst");
        CopySummary s = engine.copy(List.of(src), dst, options().recursive(true).jobs(3).rangeSize(RANGE)
                .reflink(dev.cpx.api.ReflinkMode.NEVER).build(), r);
        assertEquals(1, s.failed(), r.failures().toString());
        assertTrue(r.failures().get(0).contains("Input/output error"), r.failures().toString());
        assertFalse(Files.exists(dst.resolve("big"), LinkOption.NOFOLLOW_LINKS), "no short file under its name");
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(dst.resolve("small")));
        try (Stream<Path> list = Files.list(dst)) {
            assertEquals(List.of(dst.resolve("small")), list.toList(), "no partial file either");
        }
    }

    @Test
    void anExistingFileIsOverwrittenInPlaceInRanges() throws Exception {
        byte[] data = Trees.randomBytes((int) (4 * RANGE + 17), 4);
        Path src = Files.write(dir.resolve("src"), data);
        Path dst = Files.write(dir.resolve("dst"), Trees.randomBytes((int) (9 * RANGE), 9));
        Path link = Files.createLink(dir.resolve("link"), dst);
        RecordingEngine engine = new RecordingEngine(p -> false);
        Recorder r = new Recorder();
        engine.copy(List.of(src), dst, options().jobs(2).rangeSize(RANGE).reflink(dev.cpx.api.ReflinkMode.NEVER).build(), r);
        assertEquals(List.of(), r.failures());
        assertEquals(List.of(0L, RANGE, 2 * RANGE, 3 * RANGE, 4 * RANGE, (long) data.length),
                engine.positions.stream().sorted().toList());
        assertArrayEquals(data, Files.readAllBytes(dst));
        assertArrayEquals(data, Files.readAllBytes(link), "same inode: the hard link sees the new data");
    }

    @Test
    void noRangesWithOneWorkerOrARangeSizeOfZero() throws Exception {
        byte[] data = Trees.randomBytes((int) (4 * RANGE), 3);
        Path src = Files.write(dir.resolve("src"), data);
        for (CopyOptions o : List.of(options().jobs(1).rangeSize(RANGE).build(), options().jobs(4).rangeSize(0).build())) {
            RecordingEngine engine = new RecordingEngine(p -> false);
            Path dst = dir.resolve("dst-" + o.jobs());
            engine.copy(List.of(src), dst, o, new Recorder());
            assertEquals(List.of(0L), engine.positions);
            assertArrayEquals(data, Files.readAllBytes(dst));
        }
    }
}
