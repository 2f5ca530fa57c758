package dev.cpx.spi.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CopyBuffersTest {

    /** File size -> buffer capacity: the small buffer below 64 KiB and for size 0 (empty or not told). */
    @ParameterizedTest
    @CsvSource({
        "0, 65536",
        "1, 65536",
        "65535, 65536",
        "65536, 1048576",
        "1048576, 1048576",
        "9223372036854775807, 1048576",
    })
    void sizedByTheFile(long fileSize, int capacity) {
        assertEquals(capacity, CopyBuffers.sizeFor(fileSize));
        ByteBuffer first = CopyBuffers.forFileSize(fileSize);
        ByteBuffer second = CopyBuffers.secondForFileSize(fileSize);
        assertEquals(capacity, first.capacity());
        assertEquals(capacity, second.capacity());
        assertTrue(first.isDirect() && second.isDirect());
        assertNotSame(first, second, "two files read side by side need two buffers");
        assertSame(first, CopyBuffers.forFileSize(fileSize), "one per thread, reused");
        first.position(10);
        assertEquals(0, CopyBuffers.forFileSize(fileSize).position(), "handed out cleared");
        assertSame(first, CopyBuffers.ofSize(capacity));
    }
}
