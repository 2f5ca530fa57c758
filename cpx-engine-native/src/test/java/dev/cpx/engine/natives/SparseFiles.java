package dev.cpx.engine.natives;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cpx.contract.Blocks;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.CopyProgress;
import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.SparseMode;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;

/** Sparse test files: holes made by extending, data written at chosen offsets. */
final class SparseFiles {

    static final int KIB = 1024;
    static final int MIB = 1024 * 1024;

    private SparseFiles() {
    }

    /** A file of {@code size} bytes, all hole except random data at each {@code {offset, length}} pair. */
    static Path create(Path file, long size, long... offsetsAndLengths) throws IOException {
        Random random = new Random(size ^ offsetsAndLengths.length);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(size);
            FileChannel c = raf.getChannel();
            for (int i = 0; i < offsetsAndLengths.length; i += 2) {
                byte[] data = new byte[(int) offsetsAndLengths[i + 1]];
                random.nextBytes(data);
                c.write(ByteBuffer.wrap(data), offsetsAndLengths[i]);
            }
        }
        return file;
    }

    /** Skips the test where the file system does not keep holes. */
    static void assumeHoles(Path file, long atMost) throws IOException {
        long allocated = Blocks.allocated(file);
        Assumptions.assumeTrue(allocated <= atMost, "file system keeps no holes here: " + allocated + " bytes allocated");
    }

    /** Copies a range with {@code engine} into {@code dst} (created if missing, not truncated). */
    static long copyRange(CopyEngine engine, Path src, Path dst, long position, long length, SparseMode mode,
            CopyProgress progress) throws IOException {
        try (FileChannel in = FileChannel.open(src);
                FileChannel out = FileChannel.open(dst, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            return engine.copy(new CopyRequest(in, out, position, length, Files.size(src), mode, progress));
        }
    }

    /** Asserts that two files have the same length and bytes, without reading them whole into memory. */
    static void assertSameContent(Path expected, Path actual) throws IOException {
        assertEquals(Files.size(expected), Files.size(actual), "size");
        assertEquals(-1L, Files.mismatch(expected, actual), "first differing byte");
    }

    /** Asserts that {@code [from, to)} of both files holds the same bytes. */
    static void assertSameRange(Path expected, Path actual, long from, long to) throws IOException {
        try (FileChannel a = FileChannel.open(expected); FileChannel b = FileChannel.open(actual)) {
            ByteBuffer x = ByteBuffer.allocate(MIB);
            ByteBuffer y = ByteBuffer.allocate(MIB);
            for (long pos = from; pos < to; pos += x.capacity()) {
                int n = (int) Math.min(x.capacity(), to - pos);
                x.clear().limit(n);
                y.clear().limit(n);
                readFully(a, x, pos);
                readFully(b, y, pos);
                assertEquals(-1, x.flip().mismatch(y.flip()), "bytes differ near offset " + pos);
            }
        }
    }

    private static void readFully(FileChannel c, ByteBuffer b, long pos) throws IOException {
        long p = pos;
        while (b.hasRemaining()) {
            int n = c.read(b, p);
            if (n < 0) {
                break;
            }
            p += n;
        }
    }
}
