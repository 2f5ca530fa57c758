package dev.cpx.engine.natives;

import static dev.cpx.engine.natives.SparseFiles.KIB;
import static dev.cpx.engine.natives.SparseFiles.MIB;
import static dev.cpx.engine.natives.SparseFiles.assertSameContent;
import static dev.cpx.engine.natives.SparseFiles.assertSameRange;
import static dev.cpx.engine.natives.SparseFiles.assumeHoles;
import static dev.cpx.engine.natives.SparseFiles.copyRange;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.contract.Blocks;
import dev.cpx.spi.CopyProgress;
import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.SparseMode;
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

/** Holes: kept with AUTO, made from zero blocks with ALWAYS, filled with NEVER, in whole files and in ranges. */
class SparseCopyTest {

    private static final long HUNDRED_MIB = 100L * MIB;

    @TempDir
    Path dir;

    private final NativeEngine engine = new NativeEngine();

    @Test
    void autoKeepsTheHolesOfAMostlyEmptyFileAsGnuCpDoes() throws IOException {
        Path src = SparseFiles.create(dir.resolve("src"), HUNDRED_MIB, 4 * KIB, 4 * KIB);
        assumeHoles(src, 64 * KIB);
        Path dst = dir.resolve("dst");
        AtomicLong progress = new AtomicLong();
        assertEquals(HUNDRED_MIB, copyRange(engine, src, dst, 0, CopyRequest.TO_END, SparseMode.AUTO, progress::addAndGet));
        assertSameContent(src, dst);
        assertTrue(Blocks.allocated(dst) <= 64 * KIB, "allocated " + Blocks.allocated(dst));
        assertEquals(HUNDRED_MIB, progress.get(), "holes count as progress, so a bar reaches the end");
    }

    @Test
    void neverFillsTheHoles() throws IOException {
        Path src = SparseFiles.create(dir.resolve("src"), 8 * MIB, 4 * KIB, 4 * KIB);
        assumeHoles(src, 64 * KIB);
        Path dst = dir.resolve("dst");
        assertEquals(8 * MIB, copyRange(engine, src, dst, 0, CopyRequest.TO_END, SparseMode.NEVER, CopyProgress.NONE));
        assertSameContent(src, dst);
        assertTrue(Blocks.allocated(dst) >= 8 * MIB, "allocated " + Blocks.allocated(dst));
    }

    @Test
    void autoCopiesARangeThatStartsAndEndsInsideHoles() throws IOException {
        // hole [0, 1M) data [1M, 1M+64K) hole … data [3M, 3M+8K) hole … end at 5M
        Path src = SparseFiles.create(dir.resolve("src"), 5L * MIB, MIB, 64 * KIB, 3L * MIB, 8 * KIB);
        assumeHoles(src, 128 * KIB);
        Path dst = dir.resolve("dst");
        long from = 512 * KIB;
        long to = 4L * MIB;
        assertEquals(to - from, copyRange(engine, src, dst, from, to - from, SparseMode.AUTO, CopyProgress.NONE));
        assertEquals(to, Files.size(dst), "a range that ends in a hole still reaches its end");
        assertSameRange(src, dst, from, to);
        assertTrue(Blocks.allocated(dst) <= 128 * KIB, "allocated " + Blocks.allocated(dst));
    }

    @Test
    void autoCopiesToTheEndFromInsideAHoleAndKeepsTheTrailingHole() throws IOException {
        Path src = SparseFiles.create(dir.resolve("src"), 5L * MIB, MIB, 64 * KIB, 3L * MIB, 8 * KIB);
        assumeHoles(src, 128 * KIB);
        Path dst = dir.resolve("dst");
        long from = 2L * MIB;
        assertEquals(3L * MIB, copyRange(engine, src, dst, from, CopyRequest.TO_END, SparseMode.AUTO, CopyProgress.NONE));
        assertEquals(5L * MIB, Files.size(dst), "the trailing hole is made with ftruncate");
        assertSameRange(src, dst, from, 5L * MIB);
        assertTrue(Blocks.allocated(dst) <= 64 * KIB, "allocated " + Blocks.allocated(dst));
    }

    @Test
    void autoCopiesARangeLyingWhollyInAHole() throws IOException {
        Path src = SparseFiles.create(dir.resolve("src"), 5L * MIB, MIB, 64 * KIB);
        assumeHoles(src, 128 * KIB);
        Path dst = dir.resolve("dst");
        assertEquals(MIB, copyRange(engine, src, dst, 2L * MIB, MIB, SparseMode.AUTO, CopyProgress.NONE));
        assertEquals(3L * MIB, Files.size(dst));
        assertSameRange(src, dst, 2L * MIB, 3L * MIB);
    }

    @Test
    void autoKeepsZeroBlocksThatAreWrittenButAlwaysMakesThemHoles() throws IOException {
        // Data segment [0, 1M) holds 4 KiB of data and written zeros; then a hole; then 4 KiB of data at 50M.
        Path src = SparseFiles.create(dir.resolve("src"), 60L * MIB, 50L * MIB, 4 * KIB);
        try (FileChannel c = FileChannel.open(src, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.allocate(MIB), 0);
            c.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}), 0);
        }
        assumeHoles(src, 2L * MIB);
        Path auto = dir.resolve("auto");
        Path always = dir.resolve("always");
        assertEquals(60L * MIB, copyRange(engine, src, auto, 0, CopyRequest.TO_END, SparseMode.AUTO, CopyProgress.NONE));
        assertEquals(60L * MIB, copyRange(engine, src, always, 0, CopyRequest.TO_END, SparseMode.ALWAYS, CopyProgress.NONE));
        assertSameContent(src, auto);
        assertSameContent(src, always);
        assertTrue(Blocks.allocated(auto) >= MIB, "auto keeps written zeros: " + Blocks.allocated(auto));
        assertTrue(Blocks.allocated(always) <= 64 * KIB, "always makes holes of them: " + Blocks.allocated(always));
    }

    @Test
    void alwaysMakesHolesOfZeroBlocksInADenseFileToo() throws IOException {
        Path src = dir.resolve("src");
        byte[] data = new byte[4 * MIB];
        data[0] = 1;
        data[3 * MIB] = 2;
        Files.write(src, data);
        Path dst = dir.resolve("dst");
        assertEquals(data.length, copyRange(engine, src, dst, 0, CopyRequest.TO_END, SparseMode.ALWAYS, CopyProgress.NONE));
        assertSameContent(src, dst);
        assertTrue(Blocks.allocated(dst) <= 64 * KIB, "allocated " + Blocks.allocated(dst));
    }

    @Test
    void rangesOfASparseFileCopiedInParallelMakeTheSameSparseFile() throws Exception {
        long size = 40L * MIB + 123;
        Path src = SparseFiles.create(dir.resolve("src"), size,
                0, 4 * KIB, 7L * MIB, 100 * KIB, 10L * MIB - 3, 6, 25L * MIB, MIB, 40L * MIB, 123);
        assumeHoles(src, 2L * MIB);
        Path dst = Files.createFile(dir.resolve("dst"));
        // Cuts fall inside holes and inside data.
        long[] cuts = {0, 3L * MIB, 10L * MIB, 25L * MIB + 512 * KIB, 33L * MIB, size};
        ExecutorService pool = Executors.newFixedThreadPool(cuts.length - 1);
        try {
            List<Future<Long>> results = new ArrayList<>();
            for (int i = cuts.length - 2; i >= 0; i--) {
                long from = cuts[i];
                long length = i == cuts.length - 2 ? CopyRequest.TO_END : cuts[i + 1] - from;
                results.add(pool.submit(() -> copyRange(engine, src, dst, from, length, SparseMode.AUTO, CopyProgress.NONE)));
            }
            long total = 0;
            for (Future<Long> f : results) {
                total += f.get();
            }
            assertEquals(size, total);
        } finally {
            pool.shutdown();
        }
        assertSameContent(src, dst);
        assertTrue(Blocks.allocated(dst) <= 2L * MIB, "allocated " + Blocks.allocated(dst));
    }

    @Test
    void keepsHolesOnTheWayToAndFromAnotherFileSystem() throws IOException {
        Path src = SparseFiles.create(dir.resolve("src"), 20L * MIB, 4 * KIB, 4 * KIB, 10L * MIB, 8 * KIB);
        assumeHoles(src, 64 * KIB);
        Path shm = CrossDevice.tmpfsDirectory();
        try {
            Path there = shm.resolve("there");
            assertEquals(20L * MIB, copyRange(engine, src, there, 0, CopyRequest.TO_END, SparseMode.AUTO, CopyProgress.NONE));
            assertSameContent(src, there);
            assertTrue(Blocks.allocated(there) <= 64 * KIB, "allocated on tmpfs " + Blocks.allocated(there));
            Path back = dir.resolve("back");
            assertEquals(20L * MIB, copyRange(engine, there, back, 0, CopyRequest.TO_END, SparseMode.AUTO, CopyProgress.NONE));
            assertSameContent(src, back);
            assertTrue(Blocks.allocated(back) <= 64 * KIB, "allocated back " + Blocks.allocated(back));
        } finally {
            CrossDevice.delete(shm);
        }
    }

    @Test
    void aCancelInsideASparseCopyStopsIt() throws IOException {
        Path src = SparseFiles.create(dir.resolve("src"), HUNDRED_MIB, 0, 32L * MIB, 60L * MIB, 32L * MIB);
        AtomicLong seen = new AtomicLong();
        CopyProgress cancel = n -> {
            seen.addAndGet(n);
            throw new InterruptedIOException("cancelled");
        };
        assertThrows(InterruptedIOException.class,
                () -> copyRange(engine, src, dir.resolve("dst"), 0, CopyRequest.TO_END, SparseMode.AUTO, cancel));
        assertTrue(seen.get() < HUNDRED_MIB);
    }
}
