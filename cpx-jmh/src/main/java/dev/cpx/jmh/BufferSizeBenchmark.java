package dev.cpx.jmh;

import dev.cpx.spi.BufferedCopy;
import dev.cpx.spi.CopyBuffers;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
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
 * The user-space read/write loop (the fallback of every engine, {@link BufferedCopy}) with the buffer
 * {@link CopyBuffers#sizeFor} chooses ({@code adaptive}) against fixed 64 KiB and 1 MiB buffers, per
 * file size. The loop is the one of {@link BufferedCopy} without hole detection and progress, taking
 * the buffer as a parameter ({@code BufferedCopy} picks its own). The sizes cover every size class
 * of {@code CopyBuffers}: 64 KiB (under 4 MiB), 256 KiB (16 MiB), 1 MiB (64 MiB), 2 MiB (256 MiB).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class BufferSizeBenchmark {

    @Param({"4096", "65536", "1048576", "16777216", "67108864", "268435456"})
    public long size;

    /** {@code adaptive} (CopyBuffers.sizeFor) or a fixed size in bytes. */
    @Param({"adaptive", "65536", "1048576"})
    public String buffer;

    private int bufferSize;
    private FilePair files;

    @Setup(Level.Trial)
    public void createSource() throws IOException {
        bufferSize = buffer.equals("adaptive") ? CopyBuffers.sizeFor(size) : Integer.parseInt(buffer);
        files = FilePair.of(size);
    }

    @Setup(Level.Iteration)
    public void removeTarget() throws IOException {
        files.removeTarget();
    }

    @Benchmark
    public long copyFile() throws IOException {
        try (FileChannel in = files.openSource(); FileChannel out = files.openTarget()) {
            ByteBuffer b = CopyBuffers.ofSize(bufferSize);
            long pos = 0;
            while (pos < size) {
                b.clear();
                if (size - pos < b.capacity()) {
                    b.limit((int) (size - pos));
                }
                int n = in.read(b, pos);
                if (n <= 0) {
                    break;
                }
                b.flip();
                BufferedCopy.writeFully(out, b, pos);
                pos += n;
            }
            return pos;
        }
    }

    @TearDown(Level.Trial)
    public void removeFiles() throws IOException {
        files.close();
    }
}
