package dev.cpx.core.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.FileSystemException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ErrorsTest {

    @ParameterizedTest(name = "{0} -> write side: {1}")
    @CsvSource({
        "No space left on device, true",
        "Disk quota exceeded, true",
        "File too large, true",
        "Read-only file system, true",
        "Input/output error, false",
        "Permission denied, false",
    })
    void theDestinationsFailuresAreTheWriteSide(String reason, boolean writeSide) {
        IOException e = new FileSystemException("f", null, reason);
        assertEquals(writeSide, Errors.isWriteSide(e));
    }
}
