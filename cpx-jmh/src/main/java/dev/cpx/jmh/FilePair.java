package dev.cpx.jmh;

import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.CopyProgress;
import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.SparseMode;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The fixture of the one-file benchmarks: a source of seeded random bytes and a target name next
 * to it, in a scratch directory of their own.
 */
final class FilePair implements AutoCloseable {

    final long size;
    private final Path dir;
    private final Path source;
    private final Path target;

    private FilePair(long size) throws IOException {
        this.size = size;
        this.dir = BenchFiles.scratch();
        this.source = dir.resolve("source");
        this.target = dir.resolve("target");
        BenchFiles.write(source, size, size);
    }

    /** A new source of {@code size} bytes (at {@code Level.Trial}). */
    static FilePair of(long size) throws IOException {
        return new FilePair(size);
    }

    /** Removes the last copy, so each iteration starts without a target (at {@code Level.Iteration}). */
    void removeTarget() throws IOException {
        Files.deleteIfExists(target);
    }

    /** Opens the source for reading. */
    FileChannel openSource() throws IOException {
        return FileChannel.open(source);
    }

    /** Opens the target for writing: created, or truncated when it exists. */
    FileChannel openTarget() throws IOException {
        return BenchFiles.openTarget(target);
    }

    /** One whole-file copy with {@code engine}; the bytes copied. */
    long copyWith(CopyEngine engine) throws IOException {
        try (FileChannel in = openSource(); FileChannel out = openTarget()) {
            return engine.copy(CopyRequest.wholeFile(in, out, size, SparseMode.AUTO, CopyProgress.NONE));
        }
    }

    @Override
    public void close() throws IOException {
        BenchFiles.delete(dir);
    }
}
