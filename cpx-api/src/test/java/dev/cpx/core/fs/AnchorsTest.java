package dev.cpx.core.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cpx.spi.support.PathBytes;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The paths cpx reaches its own open files by, and back: only what {@link Anchors#self} writes names a descriptor. */
class AnchorsTest {

    @ParameterizedTest
    @CsvSource({
            "/proc/self/fd/0, 0",
            "/proc/self/fd/7, 7",
            "/proc/self/fd/123456, 123456",
            "/proc/self/fd/12/name, -1",
            "/proc/self/fd, -1",
            "/proc/self/fd/, -1",
            "/proc/self/fd/x1, -1",
            "/proc/self/fd/-1, -1",
            "/proc/1/fd/3, -1",
            "proc/self/fd/3, -1",
            "/proc/self/fd/99999999999, -1",
    })
    void descriptorOfReadsBackOnlyWhatSelfWrites(String path, int fd) {
        assertEquals(fd, Anchors.descriptorOf(Path.of(path)));
    }

    @ParameterizedTest
    @CsvSource({"0", "3", "1023", "65536"})
    void selfAndDescriptorOfAreInverses(int fd) {
        assertEquals(fd, Anchors.descriptorOf(Anchors.self(fd)));
    }

    @org.junit.jupiter.api.Test
    void aNameThatIsNotUtf8IsNoDescriptor() {
        assertEquals(-1, Anchors.descriptorOf(Path.of("/proc/self/fd").resolve(PathBytes.path(new byte[] {'1', (byte) 0xff}))));
    }
}
