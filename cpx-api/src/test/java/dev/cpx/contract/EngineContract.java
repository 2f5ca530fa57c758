package dev.cpx.contract;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.spi.CloneResult;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.CopyProgress;
import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.SparseMode;
import dev.cpx.testing.ReflinkFileSystem;
import dev.cpx.testing.Trees;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What every {@link CopyEngine} must do, on real files. An engine module runs it by extending this
 * class and returning its engine from {@link #engine()}; third-party engines do the same with the
 * {@code cpx-api} test-jar.
 */
public abstract class EngineContract {

    @TempDir
    protected Path dir;

    /** The engine under test. */
    protected abstract CopyEngine engine();

    /** A directory on another file system (a tmpfs), where cross-device fallbacks are exercised. */
    protected Path otherFileSystem() throws IOException {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) ? Files.createTempDirectory(shm, "cpx-contract") : dir;
    }

    @Test
    void describesItself() {
        CopyEngine e = engine();
        assertFalse(e.id().isBlank());
        assertEquals(e.id().toLowerCase(java.util.Locale.ROOT), e.id(), "ids are lower case");
        assertFalse(e.description().isBlank());
        assertNotNull(e.version());
        assertTrue(e.availability().available(), () -> "engine must be available here: " + e.availability().reason());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 4095, 4096, 65_537, 1_048_579, 9 * 1024 * 1024 + 5})
    void copiesWholeFiles(int size) throws IOException {
        byte[] data = Trees.randomBytes(size, size);
        Path src = Files.write(dir.resolve("src"), data);
        Path dst = dir.resolve("dst");
        assertEquals(size, copyWhole(src, dst, SparseMode.AUTO));
        assertArrayEquals(data, Files.readAllBytes(dst));
    }

    @Test
    void copiesAcrossFileSystems() throws IOException {
        byte[] data = Trees.randomBytes(3 * 1024 * 1024 + 1, 7);
        Path src = Files.write(dir.resolve("src"), data);
        Path other = otherFileSystem();
        try {
            Path dst = other.resolve("dst");
            assertEquals(data.length, copyWhole(src, dst, SparseMode.AUTO));
            assertArrayEquals(data, Files.readAllBytes(dst));
            Path back = dir.resolve("back");
            assertEquals(data.length, copyWhole(dst, back, SparseMode.AUTO));
            assertArrayEquals(data, Files.readAllBytes(back));
        } finally {
            if (!other.equals(dir)) {
                try (var s = Files.list(other)) {
                    for (Path p : s.toList()) {
                        Files.delete(p);
                    }
                }
                Files.delete(other);
            }
        }
    }

    @Test
    void copiesFilesWhoseSizeStatDoesNotTell() throws IOException {
        Path proc = Path.of("/proc/self/status");
        if (!Files.isReadable(proc)) {
            return;
        }
        Path dst = dir.resolve("status");
        long n = copyWhole(proc, dst, SparseMode.AUTO, 0);
        assertTrue(n > 0, "procfs reports size 0 but has content");
        assertTrue(Files.readString(dst).contains("Name:"));
    }

    @Test
    void copiesRangesInParallelIntoOneFile() throws Exception {
        int size = 12 * 1024 * 1024 + 333;
        byte[] data = Trees.randomBytes(size, 11);
        Path src = Files.write(dir.resolve("src"), data);
        Path dst = dir.resolve("dst");
        Files.createFile(dst);
        long[] cuts = {0, 4096 * 3 + 1, 5_000_000, 9_999_999, size};
        ExecutorService pool = Executors.newFixedThreadPool(cuts.length - 1);
        try {
            List<Future<Long>> results = new ArrayList<>();
            for (int i = 0; i < cuts.length - 1; i++) {
                long from = cuts[i];
                long length = cuts[i + 1] - from;
                boolean last = i == cuts.length - 2;
                results.add(pool.submit(() -> {
                    try (FileChannel in = FileChannel.open(src); FileChannel out = FileChannel.open(dst, StandardOpenOption.WRITE)) {
                        return engine().copy(new CopyRequest(in, out, from, last ? CopyRequest.TO_END : length, size,
                                SparseMode.AUTO, CopyProgress.NONE));
                    }
                }));
            }
            for (int i = 0; i < results.size(); i++) {
                assertEquals(cuts[i + 1] - cuts[i], results.get(i).get());
            }
        } finally {
            pool.shutdown();
        }
        assertArrayEquals(data, Files.readAllBytes(dst));
    }

    @Test
    void copiesToTheEndOfAFileThatGrew() throws IOException {
        byte[] data = Trees.randomBytes(300_000, 3);
        Path src = Files.write(dir.resolve("src"), data);
        Path dst = dir.resolve("dst");
        assertEquals(data.length, copyWhole(src, dst, SparseMode.AUTO, 1000));
        assertArrayEquals(data, Files.readAllBytes(dst));
    }

    @Test
    void stopsAtTheEndOfAFileThatShrank() throws IOException {
        byte[] data = Trees.randomBytes(10_000, 4);
        Path src = Files.write(dir.resolve("src"), data);
        Path dst = dir.resolve("dst");
        try (FileChannel in = FileChannel.open(src); FileChannel out = create(dst)) {
            long n = engine().copy(new CopyRequest(in, out, 0, 50_000, 50_000, SparseMode.AUTO, CopyProgress.NONE));
            assertEquals(10_000, n);
        }
        assertArrayEquals(data, Files.readAllBytes(dst));
    }

    @Test
    void reportsProgressForEveryByte() throws IOException {
        byte[] data = Trees.randomBytes(40 * 1024 * 1024 + 3, 5);
        Path src = Files.write(dir.resolve("src"), data);
        AtomicLong seen = new AtomicLong();
        try (FileChannel in = FileChannel.open(src); FileChannel out = create(dir.resolve("dst"))) {
            engine().copy(CopyRequest.wholeFile(in, out, data.length, SparseMode.AUTO, seen::addAndGet));
        }
        assertEquals(data.length, seen.get());
    }

    @Test
    void stopsWhenCancelled() throws IOException {
        Path src = Files.write(dir.resolve("src"), Trees.randomBytes(64 * 1024 * 1024, 6));
        AtomicLong seen = new AtomicLong();
        CopyProgress cancelAfterFirstChunk = bytes -> {
            seen.addAndGet(bytes);
            throw new InterruptedIOException("cancelled");
        };
        try (FileChannel in = FileChannel.open(src); FileChannel out = create(dir.resolve("dst"))) {
            assertThrows(InterruptedIOException.class,
                    () -> engine().copy(CopyRequest.wholeFile(in, out, Files.size(src), SparseMode.AUTO, cancelAfterFirstChunk)));
        }
        assertTrue(seen.get() < Files.size(src), "the engine went on after the cancel");
    }

    @Test
    void sparseAlwaysTurnsZeroBlocksIntoHoles() throws IOException {
        int mib = 1024 * 1024;
        byte[] data = new byte[8 * mib];
        byte[] head = Trees.randomBytes(4096, 8);
        System.arraycopy(head, 0, data, 0, head.length);
        data[5 * mib] = 1;
        Path src = Files.write(dir.resolve("src"), data);
        Path dst = dir.resolve("dst");
        assertEquals(data.length, copyWhole(src, dst, SparseMode.ALWAYS));
        assertArrayEquals(data, Files.readAllBytes(dst));
        assertTrue(Blocks.allocated(dst) < 1024 * 1024, "zero blocks should be holes; allocated " + Blocks.allocated(dst));
    }

    @Test
    void sparseAlwaysKeepsTheLengthOfATrailingHole() throws IOException {
        byte[] data = new byte[3 * 1024 * 1024];
        data[0] = 9;
        Path src = Files.write(dir.resolve("src"), data);
        Path dst = dir.resolve("dst");
        assertEquals(data.length, copyWhole(src, dst, SparseMode.ALWAYS));
        assertEquals(data.length, Files.size(dst));
        assertArrayEquals(data, Files.readAllBytes(dst));
    }

    @Test
    void sparseNeverWritesEveryBlock() throws IOException {
        Path src = dir.resolve("src");
        try (FileChannel c = create(src)) {
            c.write(ByteBuffer.wrap(new byte[] {1}), 4L * 1024 * 1024);
        }
        Path dst = dir.resolve("dst");
        assertEquals(4L * 1024 * 1024 + 1, copyWhole(src, dst, SparseMode.NEVER));
        assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dst));
        assertTrue(Blocks.allocated(dst) >= 4L * 1024 * 1024, "never means dense");
    }

    @Test
    void cloneAnswersWithAValue() throws IOException {
        byte[] data = Trees.randomBytes(100_000, 9);
        Path src = Files.write(dir.resolve("src"), data);
        Path dst = dir.resolve("dst");
        CloneResult result;
        try (FileChannel in = FileChannel.open(src); FileChannel out = create(dst)) {
            result = engine().cloneFile(in, out);
        }
        if (result.cloned()) {
            assertArrayEquals(data, Files.readAllBytes(dst));
        } else {
            assertFalse(result.reason().isBlank(), "an unsupported clone says why");
            assertEquals(0, Files.size(dst), "a failed clone leaves the target untouched");
        }
    }

    /** Whether the engine makes reflinks ({@link CopyEngine#cloneFile}) where the file system can share extents. */
    protected boolean clones() {
        return false;
    }

    @Test
    void whereExtentsCanBeSharedACloneSharesThem() throws IOException {
        try (ReflinkFileSystem xfs = ReflinkFileSystem.mount(dir)) {
            byte[] data = Trees.randomBytes(300_000, 11);
            Path src = Files.write(xfs.root().resolve("src"), data);
            Path dst = xfs.root().resolve("dst");
            CloneResult result;
            try (FileChannel in = FileChannel.open(src); FileChannel out = create(dst)) {
                result = engine().cloneFile(in, out);
            }
            if (clones()) {
                assertTrue(result.cloned(), () -> "not cloned: " + result.reason());
            }
            if (result.cloned()) {
                assertArrayEquals(data, Files.readAllBytes(dst));
                assertTrue(ReflinkFileSystem.sharesExtents(dst), "the clone shares the source's extents");
            } else {
                assertFalse(result.reason().isBlank(), "an unsupported clone says why");
                assertEquals(0, Files.size(dst), "a failed clone leaves the target untouched");
            }
        }
    }

    @Test
    void aCopyThatMayNotShareExtentsHasItsOwn() throws IOException {
        // --reflink=never: on XFS, copy_file_range (and JDK 21's transferTo) would make a reflink.
        try (ReflinkFileSystem xfs = ReflinkFileSystem.mount(dir)) {
            byte[] data = Trees.randomBytes(2 * 1024 * 1024 + 3, 12);
            Path src = Files.write(xfs.root().resolve("src"), data);
            Path dst = xfs.root().resolve("dst");
            try (FileChannel in = FileChannel.open(src); FileChannel out = create(dst)) {
                engine().copy(CopyRequest.wholeFile(in, out, data.length, SparseMode.AUTO, CopyProgress.NONE)
                        .withMayShareExtents(false));
            }
            assertArrayEquals(data, Files.readAllBytes(dst));
            assertFalse(ReflinkFileSystem.sharesExtents(dst), "the copy's extents are its own");
        }
    }

    @Test
    void neverWritesToTheSource() throws IOException {
        byte[] data = Trees.randomBytes(2 * 1024 * 1024, 10);
        Path src = Files.write(dir.resolve("src"), data);
        Files.setAttribute(src, "unix:mode", 0444);
        var before = Files.getLastModifiedTime(src);
        copyWhole(src, dir.resolve("dst"), SparseMode.ALWAYS);
        copyWhole(src, dir.resolve("dst2"), SparseMode.AUTO);
        assertArrayEquals(data, Files.readAllBytes(src));
        assertEquals(before, Files.getLastModifiedTime(src));
    }

    protected long copyWhole(Path src, Path dst, SparseMode sparse) throws IOException {
        return copyWhole(src, dst, sparse, Files.size(src));
    }

    protected long copyWhole(Path src, Path dst, SparseMode sparse, long sizeHint) throws IOException {
        try (FileChannel in = FileChannel.open(src); FileChannel out = create(dst)) {
            return engine().copy(CopyRequest.wholeFile(in, out, sizeHint, sparse, CopyProgress.NONE));
        }
    }

    protected static FileChannel create(Path p) throws IOException {
        return FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    }
}
