package dev.cpx.jmh;

import dev.cpx.api.EngineRegistry;
import dev.cpx.spi.CopyEngine;
import java.io.IOException;
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
 * One file copied by one engine, per file size (the data part of a copy: both files are open, the
 * target exists and is truncated, as when overwriting). The engine ids come from ServiceLoader at run
 * time ({@link BenchmarkMain} fills {@code engine}), so a plugin engine on the class path is
 * benchmarked without a code change. 1 GiB is in {@link LargeFileBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class EngineBenchmark {

    /** Engine id; {@link BenchmarkMain} replaces this with every engine found. */
    @Param({"native", "nio"})
    public String engine;

    @Param({"4096", "65536", "1048576", "67108864"})
    public long size;

    private CopyEngine copier;
    private FilePair files;

    @Setup(Level.Trial)
    public void createSource() throws Exception {
        copier = EngineRegistry.discover().select(engine);
        files = FilePair.of(size);
    }

    @Setup(Level.Iteration)
    public void removeTarget() throws IOException {
        files.removeTarget();
    }

    @Benchmark
    public long copyFile() throws IOException {
        return files.copyWith(copier);
    }

    @TearDown(Level.Trial)
    public void removeFiles() throws IOException {
        files.close();
    }
}
