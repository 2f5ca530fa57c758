package dev.cpx.jmh;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Stream;

/** Files for the benchmarks: a scratch directory and source files of seeded random content. */
final class BenchFiles {

    private BenchFiles() {
    }

    /** A new scratch directory under {@code -Dcpx.jmh.dir} (default {@code /tmp}): put it on the file system to measure. */
    static Path scratch() throws IOException {
        return Files.createTempDirectory(Path.of(System.getProperty("cpx.jmh.dir", "/tmp")), "cpx-jmh");
    }

    /** Writes {@code size} bytes of random data, seeded by {@code seed}, to a new file. */
    static void write(Path file, long size, long seed) throws IOException {
        byte[] chunk = new byte[(int) Math.min(1 << 20, Math.max(1, size))];
        Random random = new Random(seed);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long written = 0; written < size; ) {
                random.nextBytes(chunk);
                int n = (int) Math.min(chunk.length, size - written);
                ByteBuffer b = ByteBuffer.wrap(chunk, 0, n);
                while (b.hasRemaining()) {
                    written += out.write(b);
                }
            }
        }
    }

    /** Opens {@code target} for a copy: created, or truncated when it exists. */
    static FileChannel openTarget(Path target) throws IOException {
        return FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
    }

    /** Deletes a scratch directory and everything in it. */
    static void delete(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
