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
import java.nio.file.StandardOpenOption;
import java.util.Random;
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
 * One file copied by one engine, per file size. The engine ids come from ServiceLoader at run
 * time ({@link BenchmarkMain} fills {@code engine}), so a plugin engine on the class path is
 * benchmarked without a code change.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {
    "--add-opens=java.base/sun.nio.fs=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED"})
public class EngineBenchmark {

    /** Engine id; {@link BenchmarkMain} replaces this with every engine found. */
    @Param({"native", "nio"})
    public String engine;

    @Param({"4096", "65536", "1048576", "67108864"})
    public long size;

    private CopyEngine copier;
    private Path dir;
    private Path source;
    private Path target;

    @Setup(Level.Trial)
    public void createSource() throws Exception {
        copier = EngineRegistry.discover().select(engine);
        dir = Files.createTempDirectory(Path.of(System.getProperty("cpx.jmh.dir", "/tmp")), "cpx-jmh");
        source = dir.resolve("source");
        byte[] chunk = new byte[1 << 20];
        new Random(size).nextBytes(chunk);
        try (FileChannel out = FileChannel.open(source, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long written = 0; written < size; ) {
                int n = (int) Math.min(chunk.length, size - written);
                written += out.write(java.nio.ByteBuffer.wrap(chunk, 0, n));
            }
        }
        target = dir.resolve("target");
    }

    @Setup(Level.Iteration)
    public void removeTarget() throws IOException {
        Files.deleteIfExists(target);
    }

    @Benchmark
    public long copyFile() throws IOException {
        try (FileChannel in = FileChannel.open(source);
                FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            return copier.copy(CopyRequest.wholeFile(in, out, size, SparseMode.AUTO, CopyProgress.NONE));
        }
    }

    @TearDown(Level.Trial)
    public void removeFiles() throws IOException {
        Files.deleteIfExists(target);
        Files.deleteIfExists(source);
        Files.deleteIfExists(dir);
    }
}
