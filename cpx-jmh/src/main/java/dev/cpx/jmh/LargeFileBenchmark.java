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
 * A 1 GiB file copied by one engine into a new file, timed once per iteration (one copy takes about
 * a second, so {@link EngineBenchmark}'s time-boxed iterations would hold too few). Needs 2 GiB in
 * the scratch directory and takes about a minute per engine with the default iterations.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(1)
public class LargeFileBenchmark {

    /** Engine id; {@link BenchmarkMain} replaces this with every engine found. */
    @Param({"native", "nio"})
    public String engine;

    @Param({"1073741824"})
    public long size;

    private CopyEngine copier;
    private Path dir;
    private Path source;
    private Path target;

    @Setup(Level.Trial)
    public void createSource() throws Exception {
        copier = EngineRegistry.discover().select(engine);
        dir = BenchFiles.scratch();
        source = dir.resolve("source");
        BenchFiles.write(source, size, size);
        target = dir.resolve("target");
    }

    @Setup(Level.Iteration)
    public void removeTarget() throws IOException {
        Files.deleteIfExists(target);
    }

    @Benchmark
    public long copyFile() throws IOException {
        try (FileChannel in = FileChannel.open(source); FileChannel out = BenchFiles.openTarget(target)) {
            return copier.copy(CopyRequest.wholeFile(in, out, size, SparseMode.AUTO, CopyProgress.NONE));
        }
    }

    @TearDown(Level.Trial)
    public void removeFiles() throws IOException {
        BenchFiles.delete(dir);
    }
}
