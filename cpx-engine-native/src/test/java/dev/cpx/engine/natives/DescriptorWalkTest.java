package dev.cpx.engine.natives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.api.CopyListener;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.CopySummary;
import dev.cpx.api.Cpx;
import dev.cpx.api.EngineRegistry;
import dev.cpx.spi.Availability;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.CopyRequest;
import dev.cpx.testing.LoopFileSystem;
import dev.cpx.testing.Trees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The walk of a directory this run made, relative to open descriptors (the hot path of
 * {@code cp -r}): entries that change between the listing and their copy are copied as what they
 * are when opened, and nothing waits on a FIFO that took a regular file's place.
 */
class DescriptorWalkTest {

    @TempDir
    Path dir;

    /** The native engine, running {@code first} before its first copy. */
    private static CopyEngine engine(Runnable first) {
        return engine(first, () -> { });
    }

    /** The native engine, running {@code first} before its first copy and {@code each} before every copy. */
    private static CopyEngine engine(Runnable first, Runnable each) {
        CopyEngine real = new NativeEngine();
        AtomicBoolean done = new AtomicBoolean();
        return new CopyEngine() {
            @Override
            public String id() {
                return "native";
            }

            @Override
            public String description() {
                return real.description();
            }

            @Override
            public Availability availability() {
                return real.availability();
            }

            @Override
            public long copy(CopyRequest request) throws IOException {
                each.run();
                if (done.compareAndSet(false, true)) {
                    first.run();
                }
                return real.copy(request);
            }
        };
    }

    private static CopySummary copy(CopyEngine engine, Path src, Path dst) throws Exception {
        return copy(engine, src, dst, 1);
    }

    private static CopySummary copy(CopyEngine engine, Path src, Path dst, int jobs) throws Exception {
        return Cpx.create(EngineRegistry.of(List.of(engine), EngineRegistry.discoverExtras()))
                .copy(List.of(src), dst, CopyOptions.builder().engine("native").recursive(true).jobs(jobs).build(),
                        CopyListener.NONE);
    }

    @Test
    @Timeout(60)
    void aFileThatBecameAFifoOrALinkAfterTheListingIsCopiedAsWhatItIsThen() throws Exception {
        Path src = Files.createDirectories(dir.resolve("src/d"));
        // One worker takes the entries in inode order: the first file copied changes the others.
        Files.writeString(src.resolve("first"), "first");
        Files.writeString(src.resolve("fifo"), "was a file");
        Files.writeString(src.resolve("link"), "was a file");
        Files.writeString(src.resolve("target"), "target");
        CopySummary s = copy(engine(() -> {
            try {
                Files.delete(src.resolve("fifo"));
                new ProcessBuilder("mkfifo", src.resolve("fifo").toString()).inheritIO().start().waitFor();
                Files.delete(src.resolve("link"));
                Files.createSymbolicLink(src.resolve("link"), Path.of("target"));
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }), dir.resolve("src"), dir.resolve("dst"));
        Path dst = dir.resolve("dst/d");
        assertEquals(0, s.failed());
        assertTrue(Files.isRegularFile(dst.resolve("first"), LinkOption.NOFOLLOW_LINKS));
        assertEquals("first", Files.readString(dst.resolve("first")));
        assertEquals(0010000, (Integer) Files.getAttribute(dst.resolve("fifo"), "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0170000,
                "recreated as a FIFO, as cp -r copies one");
        assertEquals(Path.of("target"), Files.readSymbolicLink(dst.resolve("link")));
    }

    /** With several workers, a directory of many entries is shared out (see DirectoryTask.SHARED_ABOVE). */
    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    void aTreeOfManyEntriesIsTheSameAsCpMakesIt(int jobs) throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Path wide = Files.createDirectories(src.resolve("wide"));
        for (int i = 0; i < 3000; i++) {
            Files.write(wide.resolve("f" + i + "-" + "x".repeat(i % 200)), Trees.randomBytes(i % 5000, i));
        }
        Path expected = dir.resolve("by-cp");
        assertEquals(0, new ProcessBuilder("cp", "-r", src.toString(), expected.toString()).inheritIO().start().waitFor());
        CopySummary s = copy(new NativeEngine(), src, dir.resolve("dst"), jobs);
        assertEquals(0, s.failed());
        assertEquals(0, s.skipped());
        Trees.assertSameTree(expected, dir.resolve("dst"), Trees.Detail.MODE);
    }

    /**
     * The entries of a directory the workers share are made in inode order, as cp makes them, even
     * when the worker of its first chunk is held up while the others copy theirs. On tmpfs a
     * directory is read in the order its entries were made, so the order shows; on ext4 it shows in
     * a large directory's size (GnuDifferentialTest failed so on a CI machine with more cores, when
     * files in a staged tree were made as soon as a worker took them). With as many workers as
     * CPUs (2 here) a worker waits for a near turn; with more (8) it does not. An archive copy's
     * files take the general path (attributes kept), which passes its turn as the plain one does.
     */
    @ParameterizedTest
    @CsvSource({"2, false", "8, false", "2, true", "8, true"})
    @Timeout(120)
    void aSharedDirectoryIsMadeInTheOrderCpMakesItWhenOneWorkerIsHeldUp(int jobs, boolean archive) throws Exception {
        Path shm = Path.of("/dev/shm");
        assertEquals("tmpfs", Files.getFileStore(shm).type(), "/dev/shm is the tmpfs this test reads the order on");
        Path here = Files.createTempDirectory(shm, "cpx-order-");
        try {
            Path wide = Files.createDirectories(here.resolve("src/wide"));
            for (int i = 0; i < 900; i++) {
                Files.write(wide.resolve("entry-number-" + i + ".txt"), Trees.randomBytes(i % 50 + 1, i));
            }
            Path expected = here.resolve("by-cp");
            assertEquals(0, new ProcessBuilder("cp", archive ? "-a" : "-r", here.resolve("src").toString(), expected.toString())
                    .inheritIO().start().waitFor());
            CopyEngine heldUp = engine(() -> {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            CopySummary s = archive ? archiveCopy(heldUp, here.resolve("src"), here.resolve("dst"), jobs)
                    : copy(heldUp, here.resolve("src"), here.resolve("dst"), jobs);
            assertEquals(0, s.failed());
            if (archive) {
                Trees.assertSameTree(expected, here.resolve("dst"), Trees.Detail.MODE, Trees.Detail.MTIME, Trees.Detail.OWNER);
            } else {
                Trees.assertSameTree(expected, here.resolve("dst"), Trees.Detail.MODE);
            }
            assertEquals(inReadingOrder(expected.resolve("wide")), inReadingOrder(here.resolve("dst/wide")));
        } finally {
            new ProcessBuilder("rm", "-rf", here.toString()).inheritIO().start().waitFor();
        }
    }

    /**
     * Where the run's pool may grow (no {@code -j}: more workers only while workers wait on the disk),
     * a large directory is shared by as many workers as there are CPUs until a worker is seen waiting
     * on the disk, and by the others from then on (beyond the CPUs, on a warm cache, most files would
     * be made out of their turn: unnamed, then linked). Here the first file's worker waits in a
     * {@code mkdir} on a frozen file system, in state {@code D}, while another copies; each copy takes
     * a millisecond, so the directory outlasts the watch's samples. Either way the copy is cp's, in
     * cp's order. The source is on a file system of its own, not tmpfs (where the pool never grows);
     * the copy on tmpfs, where the order shows.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    @Timeout(120)
    void aSharedDirectoryTakesMoreWorkersThanCpusOnlyOnceTheRunWaitsOnTheDisk(boolean diskWait) throws Exception {
        assumeTrue(dev.cpx.testing.Unprivileged.isRoot(), "mounting and freezing file systems needs root");
        // The source without access times, so that reading a file never waits on the journal.
        try (LoopFileSystem sourceFs = LoopFileSystem.ext4(dir, "source", "noatime");
                LoopFileSystem frozen = diskWait ? LoopFileSystem.ext4(dir, "frozen", "") : null) {
            Path source = sourceFs.root();
            Path here = Files.createTempDirectory(Path.of("/dev/shm"), "cpx-sharing-");
            try {
                Path wide = Files.createDirectories(source.resolve("src/wide"));
                for (int i = 0; i < 1500; i++) {
                    Files.write(wide.resolve("entry-number-" + i + ".txt"), Trees.randomBytes(i % 50 + 1, i));
                }
                Path expected = here.resolve("by-cp");
                assertEquals(0, new ProcessBuilder("cp", "-r", source.resolve("src").toString(), expected.toString())
                        .inheritIO().start().waitFor());
                int cpus = Runtime.getRuntime().availableProcessors();
                Set<Thread> copiers = ConcurrentHashMap.newKeySet();
                if (diskWait) {
                    frozen.freeze();
                    Thread thaw = new Thread(() -> {
                        long deadline = System.nanoTime() + 20_000_000_000L;
                        while (copiers.size() <= cpus && System.nanoTime() < deadline) {
                            LockSupport.parkNanos(5_000_000);
                        }
                        frozen.thaw();
                    });
                    thaw.setDaemon(true);
                    thaw.start();
                }
                CopyEngine engine = engine(() -> {
                    if (diskWait) {
                        try {
                            Files.createDirectory(frozen.root().resolve("waits-until-thawed"));
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                }, () -> {
                    copiers.add(Thread.currentThread());
                    LockSupport.parkNanos(1_000_000);
                });
                int jobs = cpus + 2;
                CopySummary s = Cpx.create(EngineRegistry.of(List.of(engine), EngineRegistry.discoverExtras()))
                        .copy(List.of(source.resolve("src")), here.resolve("dst"), CopyOptions.builder().engine("native")
                                .recursive(true).jobs(jobs).maxJobs(jobs + 2 * cpus).build(), CopyListener.NONE);
                assertEquals(0, s.failed());
                Trees.assertSameTree(expected, here.resolve("dst"), Trees.Detail.MODE);
                assertEquals(inReadingOrder(expected.resolve("wide")), inReadingOrder(here.resolve("dst/wide")));
                if (diskWait) {
                    assertTrue(copiers.size() > cpus, copiers.size() + " workers copied while one waited on the disk, "
                            + cpus + " CPUs");
                } else {
                    assertTrue(copiers.size() <= cpus, copiers.size() + " workers copied, " + cpus + " CPUs");
                }
            } finally {
                new ProcessBuilder("rm", "-rf", here.toString()).inheritIO().start().waitFor();
            }
        }
    }

    private static List<Path> inReadingOrder(Path d) throws IOException {
        try (var entries = Files.newDirectoryStream(d)) {
            List<Path> names = new java.util.ArrayList<>();
            entries.forEach(p -> names.add(p.getFileName()));
            return names;
        }
    }

    /** {@code cp -a}'s copy of {@code src} to {@code dst}, with {@code jobs} workers. */
    private static CopySummary archiveCopy(CopyEngine engine, Path src, Path dst, int jobs) throws Exception {
        return Cpx.create(EngineRegistry.of(List.of(engine), EngineRegistry.discoverExtras()))
                .copy(List.of(src), dst, CopyOptions.builder().engine("native").recursive(true)
                        .preserve(dev.cpx.api.Attribute.MODE, dev.cpx.api.Attribute.OWNERSHIP,
                                dev.cpx.api.Attribute.TIMESTAMPS, dev.cpx.api.Attribute.LINKS, dev.cpx.api.Attribute.XATTR)
                        .jobs(jobs).build(), CopyListener.NONE);
    }

    @Test
    void anArchiveCopyKeepsHardLinksAndTimesAsCpDoes() throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Path d = Files.createDirectories(src.resolve("linked"));
        Files.writeString(d.resolve("one"), "one inode, three names");
        Files.createLink(d.resolve("two"), d.resolve("one"));
        Files.createLink(src.resolve("three"), d.resolve("one"));
        Files.writeString(d.resolve("alone"), "one name");
        Path expected = dir.resolve("by-cp");
        assertEquals(0, new ProcessBuilder("cp", "-a", src.toString(), expected.toString()).inheritIO().start().waitFor());
        CopySummary s = archiveCopy(new NativeEngine(), src, dir.resolve("dst"), 4);
        assertEquals(0, s.failed());
        Trees.assertSameTree(expected, dir.resolve("dst"), Trees.Detail.MODE, Trees.Detail.MTIME, Trees.Detail.OWNER,
                Trees.Detail.LINKS);
    }
}
