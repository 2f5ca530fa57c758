package dev.cpx.engine.natives;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/** A scratch directory on tmpfs ({@code /dev/shm}), another file system than the temp dir's. */
final class CrossDevice {

    private CrossDevice() {
    }

    static Path tmpfsDirectory() throws IOException {
        Path shm = Path.of("/dev/shm");
        Assumptions.assumeTrue(Files.isDirectory(shm) && Files.isWritable(shm), "no writable /dev/shm");
        return Files.createTempDirectory(shm, "cpx-native-test");
    }

    static void delete(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
