package dev.cpx.engine.natives;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cpx.spi.support.Errno;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The shared errno table ({@link Errno}) says what this machine's C library says, number by number. */
class ErrnoTest {

    @Test
    void theTableSaysWhatGlibcSays() {
        Assumptions.assumeTrue("Operation not permitted".equals(LibCText.strerror(Errno.EPERM)), "C library messages are English here");
        for (int errno = 0; errno < 200; errno++) {
            assertEquals(LibCText.strerror(errno), Errno.message(errno), "errno " + errno);
        }
    }
}
