package dev.cpx.jmh;

import dev.cpx.api.EngineRegistry;
import dev.cpx.spi.CopyEngine;
import java.io.IOException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One file copied by one engine: the fixture and the measured copy that {@link EngineBenchmark}
 * and {@link LargeFileBenchmark} share (as in JMH's inheritance sample); they give the sizes and
 * how to time them. The engine ids come from ServiceLoader at run time ({@link BenchmarkMain}
 * fills {@code engine}), so a plugin engine on the class path is benchmarked without a code change.
 */
@State(Scope.Benchmark)
public abstract class OneFileCopy {

    /** Engine id; {@link BenchmarkMain} replaces this with every engine found. */
    @Param({"native", "nio"})
    public String engine;

    private CopyEngine copier;
    private FilePair files;

    /** The size of the file to copy, in bytes. */
    protected abstract long size();

    @Setup(Level.Trial)
    public void createSource() throws Exception {
        copier = EngineRegistry.discover().select(engine);
        files = FilePair.of(size());
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
