package dev.cpx.engine.natives;

import static dev.cpx.engine.natives.SparseFiles.MIB;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.api.Diagnostic;
import dev.cpx.spi.CloneResult;
import dev.cpx.spi.CopyProgress;
import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.SparseMode;
import dev.cpx.spi.support.Errno;
import dev.cpx.spi.support.FileDescriptors;
import dev.cpx.spi.support.KernelCopy;
import dev.cpx.testing.Trees;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The kernel copy path and its fallbacks: copy_file_range, sendfile, read/write; and what its failures say. */
class KernelCopyTest {

    @TempDir
    Path dir;

    private final NativeEngine engine = new NativeEngine();

    @Test
    void fallsBackToSendfileWhereCopyFileRangeSaysCrossDevice() throws IOException {
        byte[] data = Trees.randomBytes(5 * MIB + 17, 21);
        Path src = Files.write(dir.resolve("src"), data);
        Path shm = CrossDevice.tmpfsDirectory();
        try {
            Path dst = shm.resolve("dst");
            try (FileChannel in = FileChannel.open(src); FileChannel out = create(dst)) {
                // The premise: here the kernel refuses copy_file_range between these file systems.
                long n = LibC.copy_file_range(FileDescriptors.of(in), new long[1], FileDescriptors.of(out), new long[1], 4096, 0);
                int errno = LibC.errno();
                Assumptions.assumeTrue(n < 0 && errno == Errno.EXDEV, "copy_file_range crosses file systems here");
                AtomicLong progress = new AtomicLong();
                assertEquals(data.length, engine.copy(CopyRequest.wholeFile(in, out, data.length, SparseMode.NEVER, progress::addAndGet)));
                assertEquals(data.length, progress.get());
                assertEquals(0, in.position(), "the source channel's position is not used");
            }
            assertArrayEquals(data, Files.readAllBytes(dst));
        } finally {
            CrossDevice.delete(shm);
        }
    }

    /**
     * After copy_file_range said EXDEV, small files go straight to sendfile (two calls fewer each), a
     * large one asks again and, where it works, makes small files ask again too; every copy is whole.
     */
    @Test
    void smallFilesSkipCopyFileRangeAfterItSaidCrossDeviceUntilALargeFileCopiesWithIt() throws IOException {
        byte[] small = Trees.randomBytes(3000, 23);
        byte[] large = Trees.randomBytes(2 * MIB + 1, 24);
        Path smallSrc = Files.write(dir.resolve("small"), small);
        Path largeSrc = Files.write(dir.resolve("large"), large);
        Path shm = CrossDevice.tmpfsDirectory();
        try {
            try (FileChannel in = FileChannel.open(smallSrc); FileChannel out = create(shm.resolve("a"))) {
                long n = LibC.copy_file_range(FileDescriptors.of(in), new long[1], FileDescriptors.of(out), new long[1], 16, 0);
                Assumptions.assumeTrue(n < 0 && LibC.errno() == Errno.EXDEV, "copy_file_range crosses file systems here");
            }
            copy(smallSrc, shm.resolve("a"), small.length);
            assertTrue(KernelCopy.crossDevice(), "EXDEV is remembered");
            copy(smallSrc, shm.resolve("b"), small.length);
            copy(smallSrc, dir.resolve("b"), small.length);
            assertTrue(KernelCopy.crossDevice(), "a small file does not ask again");
            copy(largeSrc, shm.resolve("c"), large.length);
            assertTrue(KernelCopy.crossDevice(), "a large file across file systems asks, and is refused again");
            copy(largeSrc, dir.resolve("c"), large.length);
            assertFalse(KernelCopy.crossDevice(), "a large file on one file system copies with copy_file_range, and small ones ask again");
            copy(smallSrc, dir.resolve("d"), small.length);
            assertFalse(KernelCopy.crossDevice());
            for (Path p : new Path[] {shm.resolve("a"), shm.resolve("b"), dir.resolve("b"), dir.resolve("d")}) {
                assertArrayEquals(small, Files.readAllBytes(p), p.toString());
            }
            assertArrayEquals(large, Files.readAllBytes(shm.resolve("c")));
            assertArrayEquals(large, Files.readAllBytes(dir.resolve("c")));
        } finally {
            CrossDevice.delete(shm);
        }
    }

    private void copy(Path src, Path dst, long size) throws IOException {
        try (FileChannel in = FileChannel.open(src); FileChannel out = create(dst)) {
            assertEquals(size, engine.copy(CopyRequest.wholeFile(in, out, size, SparseMode.AUTO, CopyProgress.NONE)));
        }
    }

    @Test
    void copiesARangeAcrossFileSystemsToTheSameOffsets() throws IOException {
        byte[] data = Trees.randomBytes(3 * MIB, 22);
        Path src = Files.write(dir.resolve("src"), data);
        Path shm = CrossDevice.tmpfsDirectory();
        try {
            Path dst = shm.resolve("dst");
            long from = MIB + 5;
            long length = MIB + 7;
            try (FileChannel in = FileChannel.open(src); FileChannel out = create(dst)) {
                assertEquals(length, engine.copy(new CopyRequest(in, out, from, length, data.length, SparseMode.AUTO, CopyProgress.NONE)));
            }
            byte[] copied = Files.readAllBytes(dst);
            assertEquals(from + length, copied.length);
            for (int i = 0; i < length; i++) {
                if (copied[(int) from + i] != data[(int) from + i]) {
                    throw new AssertionError("byte " + (from + i) + " differs");
                }
            }
        } finally {
            CrossDevice.delete(shm);
        }
    }

    @ParameterizedTest
    @EnumSource(SparseMode.class)
    void readsProcfsFilesWhoseSizeIsZero(SparseMode mode) throws IOException {
        Path proc = Path.of("/proc/self/mountinfo");
        Assumptions.assumeTrue(Files.isReadable(proc), "no procfs");
        assertEquals(0, Files.size(proc), "procfs says size 0");
        Path dst = dir.resolve("mountinfo");
        long n;
        try (FileChannel in = FileChannel.open(proc); FileChannel out = create(dst)) {
            n = engine.copy(CopyRequest.wholeFile(in, out, 0, mode, CopyProgress.NONE));
        }
        assertTrue(n > 0);
        assertEquals(n, Files.size(dst));
        assertTrue(Files.readString(dst).contains(" / "), "has the root mount");
    }

    /** Size 0 by stat, megabytes read: many passes of the read/write loop's small buffer, nothing lost. */
    @Test
    void readsAProcfsFileOfManyBuffers() throws IOException {
        Path proc = Path.of("/proc/kallsyms");
        Assumptions.assumeTrue(Files.isReadable(proc), "no /proc/kallsyms");
        byte[] expected = Files.readAllBytes(proc);
        Assumptions.assumeTrue(expected.length > 4 * dev.cpx.spi.support.CopyBuffers.SIZE, "a small kernel symbol table");
        Path dst = dir.resolve("kallsyms");
        try (FileChannel in = FileChannel.open(proc); FileChannel out = create(dst)) {
            assertEquals(expected.length, engine.copy(CopyRequest.wholeFile(in, out, 0, SparseMode.AUTO, CopyProgress.NONE)));
        }
        org.junit.jupiter.api.Assertions.assertArrayEquals(expected, Files.readAllBytes(dst));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/proc/cpuinfo", "/proc/self/stat", "/proc/version"})
    void readsProcfsFilesWithAWrongSizeHint(String file) throws IOException {
        Path proc = Path.of(file);
        Assumptions.assumeTrue(Files.isReadable(proc), "no " + file);
        Path dst = dir.resolve("copy");
        long n;
        try (FileChannel in = FileChannel.open(proc); FileChannel out = create(dst)) {
            n = engine.copy(CopyRequest.wholeFile(in, out, 4096, SparseMode.AUTO, CopyProgress.NONE));
        }
        assertTrue(n > 0, file + " has content");
        assertEquals(n, Files.size(dst));
    }

    @Test
    void aFullDeviceFailsWithTheSystemsReason() throws IOException {
        Path full = Path.of("/dev/full");
        Assumptions.assumeTrue(Files.isWritable(full), "no /dev/full");
        Path src = Files.write(dir.resolve("src"), Trees.randomBytes(256 * 1024, 23));
        try (FileChannel in = FileChannel.open(src); FileChannel out = FileChannel.open(full, StandardOpenOption.WRITE)) {
            IOException e = assertThrows(IOException.class,
                    () -> engine.copy(CopyRequest.wholeFile(in, out, Files.size(src), SparseMode.NEVER, CopyProgress.NONE)));
            assertEquals("No space left on device", e.getMessage());
            assertEquals("No space left on device", Diagnostic.reasonOf(e));
        }
    }

    @Test
    void anEmptyFileCopiesToAnEmptyFile() throws IOException {
        Path src = Files.createFile(dir.resolve("empty"));
        Path dst = Files.write(dir.resolve("dst"), new byte[] {1, 2, 3});
        try (FileChannel in = FileChannel.open(src); FileChannel out = create(dst)) {
            assertEquals(0, engine.copy(CopyRequest.wholeFile(in, out, 0, SparseMode.AUTO, CopyProgress.NONE)));
        }
        assertEquals(0, Files.size(dst));
    }

    @Test
    void aRangeBeyondTheEndCopiesNothing() throws IOException {
        Path src = Files.write(dir.resolve("src"), new byte[100]);
        try (FileChannel in = FileChannel.open(src); FileChannel out = create(dir.resolve("dst"))) {
            assertEquals(0, engine.copy(new CopyRequest(in, out, 1000, 50, 2000, SparseMode.AUTO, CopyProgress.NONE)));
            assertEquals(0, engine.copy(new CopyRequest(in, out, 1000, CopyRequest.TO_END, 2000, SparseMode.NEVER, CopyProgress.NONE)));
        }
    }

    @Test
    void channelsWithoutADescriptorUseTheReadWriteLoop() throws IOException {
        byte[] data = Trees.randomBytes(200_000, 24);
        Path zip = dir.resolve("a.zip");
        try (FileSystem zipfs = FileSystems.newFileSystem(zip, Map.of("create", "true"))) {
            Files.write(zipfs.getPath("entry"), data);
        }
        Path dst = dir.resolve("dst");
        try (FileSystem zipfs = FileSystems.newFileSystem(zip);
                FileChannel in = FileChannel.open(zipfs.getPath("entry"));
                FileChannel out = create(dst)) {
            assertEquals(data.length, engine.copy(CopyRequest.wholeFile(in, out, data.length, SparseMode.AUTO, CopyProgress.NONE)));
            CloneResult clone = engine.cloneFile(in, out);
            assertFalse(clone.cloned());
            assertEquals("Operation not supported", clone.reason());
        }
        assertArrayEquals(data, Files.readAllBytes(dst));
    }

    @Test
    void copyFileRangeIsStillThoughtPresent() {
        assertFalse(KernelCopy.copyFileRangeMissing(), "this kernel has copy_file_range; only ENOSYS marks it missing");
    }

    private static FileChannel create(Path p) throws IOException {
        return FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    }
}
