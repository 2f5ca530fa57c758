package dev.cpx.engine.ffm;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import dev.cpx.engine.natives.NativeExtras;
import dev.cpx.spi.Descriptors;
import dev.cpx.spi.FileStatus;
import java.io.IOException;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one C library call costs through JNA direct mapping (as cpx-engine-native binds it:
 * {@code Native.register}, errno kept) and through this module's downcall handles ({@link LibC}:
 * {@code errno} captured), for a function that makes no system call ({@code abs}: the dispatch alone),
 * for trivial system calls ({@code getpid}, {@code lseek(SEEK_CUR)}) and for
 * the call the scheduler makes per file ({@code Descriptors.status(fd)}: {@code statx} and its
 * decoding). In this package to reach the handles, which the module does not export. Run on JDK 22 or
 * later with {@code --enable-native-access=ALL-UNNAMED} (docs/engines-ffm.md has the command).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/sun.nio.fs=ALL-UNNAMED"})
public class DispatchBenchmark {

    /** The same two functions bound as cpx-engine-native binds its own (direct mapping). */
    static final class Jna {
        static {
            Native.register(Jna.class, NativeLibrary.getInstance("libc.so.6"));
        }

        static native int getpid();

        static native int abs(int value);

        static native long lseek(int fd, long offset, int whence);
    }

    private static final int SEEK_CUR = 1;

    private Path file;
    private Descriptors jna;
    private Descriptors ffm;
    private int fd;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        if (!FfmSupport.libc().available()) {
            throw new IllegalStateException("the FFM engine is unavailable here: " + FfmSupport.libc().reason());
        }
        file = Files.createTempFile("cpx-dispatch", ".bin");
        Files.write(file, new byte[4096]);
        jna = new NativeExtras().descriptors().orElseThrow();
        ffm = new FfmExtras().descriptors().orElseThrow();
        int dir = ffm.openDirectory(file.getParent());
        fd = ffm.openFile(dir, file.getFileName().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        ffm.close(dir);
        Jna.getpid();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        ffm.close(fd);
        Files.deleteIfExists(file);
    }

    private int value = -42;

    @Benchmark
    public int absJna() {
        return Jna.abs(value);
    }

    @Benchmark
    public int absFfm() {
        return LibC.abs(Scratch.get(), value);
    }

    @Benchmark
    public int getpidJna() {
        return Jna.getpid();
    }

    @Benchmark
    public int getpidFfm() {
        return LibC.getpid(Scratch.get());
    }

    @Benchmark
    public long lseekJna() {
        return Jna.lseek(fd, 0, SEEK_CUR);
    }

    @Benchmark
    public long lseekFfm() {
        return LibC.lseek(Scratch.get(), fd, 0, SEEK_CUR);
    }

    @Benchmark
    public FileStatus statusJna() throws IOException {
        return jna.status(fd);
    }

    @Benchmark
    public FileStatus statusFfm() throws IOException {
        return ffm.status(fd);
    }
}
