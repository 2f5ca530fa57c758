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
public class LargeFileBenchmark extends OneFileCopy {

    @Param({"1073741824"})
    public long size;

    @Override
    protected long size() {
        return size;
    }
}
