package dev.cpx.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
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
public class EngineBenchmark extends OneFileCopy {

    @Param({"4096", "65536", "1048576", "67108864"})
    public long size;

    @Override
    protected long size() {
        return size;
    }
}
