package dev.cpx.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.api.CopyJob;
import dev.cpx.api.CopyListener;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.CopySummary;
import dev.cpx.api.Cpx;
import dev.cpx.api.EngineRegistry;
import dev.cpx.api.FileInFlight;
import dev.cpx.api.Progress;
import dev.cpx.spi.CopyEngine;
import dev.cpx.testing.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a running copy tells a progress display ({@link CopyJob#progress()}, {@link CopyJob#inFlight()}),
 * and that cancelling it leaves nothing half-written: every engine module runs these with its engine.
 */
public abstract class ProgressContract {

    private static final Path ZEROS = Path.of("/dev/zero");

    @TempDir
    protected Path dir;

    /** The engine under test. */
    protected abstract CopyEngine engine();

    private CopyJob start(List<Path> sources, Path target, CopyOptions.Builder options) throws Exception {
        Cpx cpx = Cpx.create(EngineRegistry.of(List.of(engine()), EngineRegistry.discoverExtras()));
        return cpx.start(sources, target, options.engine(engine().id()).build(),
                CopyListener.NONE);
    }

    @Test
    void namesTheFileInFlightUntilCancelledAndLeavesNoPartialFile() throws Exception {
        assumeTrue(Files.isReadable(ZEROS), "no /dev/zero here: an endless source is needed");
        // /dev/zero read as data never ends, so the copy is surely in flight until cancelled.
        Path dst = dir.resolve("zeros");
        CopyJob job = start(List.of(ZEROS), dst, CopyOptions.builder());
        FileInFlight seen = null;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (seen == null && System.nanoTime() < deadline) {
            Optional<FileInFlight> f = job.inFlight().stream().filter(x -> x.bytesDone() > 0).findFirst();
            seen = f.orElse(null);
            Thread.sleep(1);
        }
        job.cancel();
        CopySummary summary = job.await();
        assertTrue(seen != null, "no file in flight with bytes copied was reported");
        assertEquals(ZEROS, seen.source());
        assertEquals(dst, seen.target());
        assertEquals(0, seen.size(), "a device read as data has no size");
        assertFalse(seen.elapsed().isNegative());
        assertTrue(summary.cancelled());
        assertFalse(summary.succeeded());
        assertEquals(List.of(), job.inFlight(), "nothing is in flight after the copy ended");
        assertTrue(job.progress().bytesDone() >= seen.bytesDone(), job.progress()::toString);
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "a cancelled new file must leave nothing behind");
        }
    }

    @Test
    void cancellingFinishesAFileBeingOverwrittenInPlace() throws Exception {
        // 256 MiB: sixteen and more engine chunks, so the cancel surely comes in the middle.
        Path src = dir.resolve("src");
        Path dst = dir.resolve("dst");
        byte[] block = Trees.randomBytes(1 << 20, 7);
        try (var out = Files.newOutputStream(src); var old = Files.newOutputStream(dst)) {
            byte[] filler = new byte[1 << 20];
            java.util.Arrays.fill(filler, (byte) 'a');
            for (int i = 0; i < 256; i++) {
                block[0] = (byte) i;
                block[1] = (byte) (i >> 8);
                out.write(block);
                old.write(filler);
            }
        }
        CopyJob job = start(List.of(src), dst, CopyOptions.builder());
        FileInFlight seen = null;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (seen == null && System.nanoTime() < deadline) {
            seen = job.inFlight().stream().filter(x -> x.bytesDone() > 0).findFirst().orElse(null);
            Thread.onSpinWait();
        }
        job.cancel();
        CopySummary summary = job.await();
        assertTrue(seen != null && seen.bytesDone() < seen.size(), "not seen in the middle of the file: " + seen);
        assertTrue(summary.cancelled());
        assertEquals(1, summary.files(), "the file in flight was finished: " + summary);
        assertEquals(-1, Files.mismatch(src, dst), "the overwritten file is complete");
    }

    @Test
    void countsEveryFileAndByteOfATree() throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        long files;
        long bytes;
        try (Stream<Path> walk = Files.walk(src)) {
            List<Path> regular = walk.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)).toList();
            files = regular.size();
            long sum = 0;
            for (Path p : regular) {
                sum += Files.size(p);
            }
            bytes = sum;
        }
        CopyJob job = start(List.of(src), dir.resolve("dst"), CopyOptions.builder().recursive(true).jobs(3));
        CopySummary summary = job.await();
        Progress p = job.progress();
        assertTrue(summary.succeeded(), summary::toString);
        assertEquals(new Progress(files, bytes, files, bytes, true), p);
        assertEquals(bytes, summary.bytes());
        assertEquals(List.of(), job.inFlight());
    }
}
