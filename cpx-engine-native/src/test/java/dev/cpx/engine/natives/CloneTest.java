package dev.cpx.engine.natives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.cpx.spi.CloneResult;
import dev.cpx.testing.Trees;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code FICLONE}: a value, never an exception, where the file system cannot share extents (where it
 * can, the engine contract proves the clone: {@code EngineContract#whereExtentsCanBeSharedACloneSharesThem}).
 */
class CloneTest {

    @TempDir
    Path dir;

    @Test
    void cloneOnExt4IsUnsupportedWithTheSystemsReason() throws IOException {
        Assumptions.assumeTrue("ext4".equals(Files.getFileStore(dir).type()), "temp dir is on ext4");
        Path src = Files.write(dir.resolve("src"), Trees.randomBytes(10_000, 31));
        Path dst = dir.resolve("dst");
        CloneResult result;
        try (FileChannel in = FileChannel.open(src);
                FileChannel out = FileChannel.open(dst, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            result = new NativeEngine().cloneFile(in, out);
        }
        assertFalse(result.cloned());
        assertEquals("Operation not supported", result.reason());
        assertEquals(0, Files.size(dst));
    }

    @Test
    void cloneAcrossFileSystemsIsUnsupported() throws IOException {
        Path src = Files.write(dir.resolve("src"), Trees.randomBytes(10_000, 32));
        Path shm = CrossDevice.tmpfsDirectory();
        try (FileChannel in = FileChannel.open(src);
                FileChannel out = FileChannel.open(shm.resolve("dst"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            CloneResult result = new NativeEngine().cloneFile(in, out);
            assertFalse(result.cloned());
            assertFalse(result.reason().isBlank());
        } finally {
            CrossDevice.delete(shm);
        }
    }
}
