package dev.cpx.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class CopyOptionsTest {

    @Test
    void aBuilderFromOptionsBuildsTheSameOptions() {
        CopyOptions o = CopyOptions.builder().recursive(true).jobs(3).rangeSize(1 << 20).excludes(List.of("*.o"))
                .resume(true).build();
        assertEquals(o, o.toBuilder().build());
    }

    @Test
    void rangesAreOffOrAtLeast64KiB() {
        assertEquals(0, CopyOptions.builder().rangeSize(0).build().rangeSize());
        assertEquals(64 << 10, CopyOptions.builder().rangeSize(64 << 10).build().rangeSize());
        assertThrows(IllegalArgumentException.class, () -> CopyOptions.builder().rangeSize(4096).build());
        assertThrows(IllegalArgumentException.class, () -> CopyOptions.builder().rangeSize(-1).build());
        assertEquals(64L << 20, CopyOptions.defaultRangeSize());
    }

    @Test
    void atLeastOneWorker() {
        assertThrows(IllegalArgumentException.class, () -> CopyOptions.builder().jobs(0).build());
    }
}
