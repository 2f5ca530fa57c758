package dev.cpx.jmh;

import dev.cpx.api.EngineRegistry;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.CopyProgress;
import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.SparseMode;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A batch of files of one size copied by one engine on {@code threads} threads: how an engine scales
 * with the worker count. One operation copies the whole batch ({@link #files} files, about 256 MiB or
 * 256 files), so compare times within one size; bytes per second = batch bytes / time.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ConcurrentCopyBenchmark {

    /** Engine id; {@link BenchmarkMain} replaces this with every engine found. */
    @Param({"native", "nio"})
    public String engine;

    @Param({"4096", "65536", "1048576", "67108864"})
    public long size;

    @Param({"1", "2", "4", "8"})
    public int threads;

    /** Files per batch: 256, or fewer large ones so a batch stays near 256 MiB (at least 8). */
    int files;

    private CopyEngine copier;
    private ExecutorService pool;
    private Path dir;
    private final List<Callable<Long>> copies = new ArrayList<>();
    private final List<Path> targets = new ArrayList<>();

    @Setup(Level.Trial)
    public void createSources() throws Exception {
        copier = EngineRegistry.discover().select(engine);
        files = (int) Math.max(8, Math.min(256, (256L << 20) / size));
        dir = BenchFiles.scratch();
        for (int i = 0; i < files; i++) {
            Path source = dir.resolve("source" + i);
            Path target = dir.resolve("target" + i);
            BenchFiles.write(source, size, size * 1000 + i);
            targets.add(target);
            copies.add(() -> {
                try (FileChannel in = FileChannel.open(source); FileChannel out = BenchFiles.openTarget(target)) {
                    return copier.copy(CopyRequest.wholeFile(in, out, size, SparseMode.AUTO, CopyProgress.NONE));
                }
            });
        }
        pool = Executors.newFixedThreadPool(threads);
    }

    @Setup(Level.Iteration)
    public void removeTargets() throws IOException {
        for (Path t : targets) {
            Files.deleteIfExists(t);
        }
    }

    @Benchmark
    public long copyBatch() throws Exception {
        long bytes = 0;
        for (Future<Long> f : pool.invokeAll(copies)) {
            bytes += f.get();
        }
        return bytes;
    }

    @TearDown(Level.Trial)
    public void stop() throws IOException {
        pool.shutdownNow();
        BenchFiles.delete(dir);
    }
}
