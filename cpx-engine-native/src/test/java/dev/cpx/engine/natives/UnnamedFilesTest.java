package dev.cpx.engine.natives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cpx.testing.ProcessFacts;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files written without a name ({@code O_TMPFILE}) and named only when complete ({@code linkat}). */
class UnnamedFilesTest {

    @TempDir
    Path dir;

    private final NativeExtras extras = new NativeExtras();

    private static List<Path> list(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.toList();
        }
    }

    @Test
    void anUnnamedFileIsInvisibleUntilLinked() throws IOException {
        FileChannel file = extras.createUnnamed(dir, 0640).orElseThrow();
        assertNotNull(file, "ext4 has O_TMPFILE");
        try (file) {
            file.write(ByteBuffer.wrap("complete".getBytes(StandardCharsets.US_ASCII)));
            assertEquals(List.of(), list(dir), "nothing is visible while the file is written");
            Path target = dir.resolve("final");
            extras.linkUnnamed(file, target);
            assertEquals("complete", Files.readString(target));
            assertEquals(0640 & ~ProcessFacts.umask(), (Integer) Files.getAttribute(target, "unix:mode") & 07777);
        }
    }

    @Test
    void aFileThatIsNeverLinkedLeavesNothing() throws IOException {
        try (FileChannel file = extras.createUnnamed(dir, 0600).orElseThrow()) {
            file.write(ByteBuffer.wrap(new byte[4096]));
        }
        assertEquals(List.of(), list(dir));
    }

    @Test
    void linkingOntoAnExistingNameFails() throws IOException {
        Files.writeString(dir.resolve("taken"), "keep me");
        try (FileChannel file = extras.createUnnamed(dir, 0600).orElseThrow()) {
            assertThrows(FileAlreadyExistsException.class, () -> extras.linkUnnamed(file, dir.resolve("taken")));
        }
        assertEquals("keep me", Files.readString(dir.resolve("taken")));
    }

    @Test
    void worksOnTmpfsToo() throws IOException {
        Path shm = Files.createTempDirectory(Path.of("/dev/shm"), "cpx-unnamed");
        try (FileChannel file = extras.createUnnamed(shm, 0644).orElse(null)) {
            assertNotNull(file, "tmpfs has O_TMPFILE");
            file.write(ByteBuffer.wrap(new byte[] {7}));
            extras.linkUnnamed(file, shm.resolve("x"));
            Files.delete(shm.resolve("x"));
        } finally {
            Files.delete(shm);
        }
    }

    @Test
    void aMissingDirectoryIsAnError() {
        assertThrows(NoSuchFileException.class, () -> extras.createUnnamed(dir.resolve("missing"), 0600));
    }
}
