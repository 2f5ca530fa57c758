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
