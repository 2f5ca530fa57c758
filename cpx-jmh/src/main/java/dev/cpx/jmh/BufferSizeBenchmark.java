package dev.cpx.jmh;

import dev.cpx.spi.support.BufferedCopy;
import dev.cpx.spi.support.CopyBuffers;
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
 * The user-space read/write loop (the fallback of every engine, {@link BufferedCopy}) with buffers
 * of 64 KiB, 256 KiB, 1 MiB and 2 MiB, per file size: which buffer size to use, and whether it
 * should depend on the file's size (it did once: 64 KiB under 4 MiB up to 2 MiB from 128 MiB, which
 * never beat a fixed buffer here; {@link CopyBuffers} now has one size). The loop is the one of
 * {@link BufferedCopy} without hole detection and progress, taking the buffer as a parameter.
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

    /** Buffer size in bytes; {@link CopyBuffers#SIZE} is the one cpx uses. */
    @Param({"65536", "262144", "1048576", "2097152"})
    public int buffer;

    private ByteBuffer bytes;
    private FilePair files;

    @Setup(Level.Trial)
    public void createSource() throws IOException {
        bytes = ByteBuffer.allocateDirect(buffer);
        files = FilePair.of(size);
    }

    @Setup(Level.Iteration)
    public void removeTarget() throws IOException {
        files.removeTarget();
    }

    @Benchmark
    public long copyFile() throws IOException {
        try (FileChannel in = files.openSource(); FileChannel out = files.openTarget()) {
            ByteBuffer b = bytes;
            long pos = 0;
            while (pos < size) {
                int n = BufferedCopy.readAt(in, b, pos, size);
                if (n <= 0) {
                    break;
                }
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
