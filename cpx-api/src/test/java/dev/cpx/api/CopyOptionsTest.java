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
    void moreWorkersWhileTheyWaitOnTheDiskUnlessJobsAreGiven() {
        CopyOptions byDefault = CopyOptions.builder().build();
        assertEquals(CopyOptions.defaultJobs(), byDefault.jobs());
        assertEquals(Math.max(16, 2 * CopyOptions.defaultJobs()), byDefault.maxJobs());
        CopyOptions exactly = CopyOptions.builder().jobs(3).build();
        assertEquals(3, exactly.jobs());
        assertEquals(3, exactly.maxJobs());
        CopyOptions upTo = CopyOptions.builder().jobs(3).maxJobs(10).build();
        assertEquals(10, upTo.maxJobs());
        assertEquals(upTo, upTo.toBuilder().build());
        // Never fewer at most than at first.
        assertEquals(40, CopyOptions.builder().jobs(40).maxJobs(10).build().maxJobs());
        assertEquals(40, byDefault.toBuilder().jobs(40).build().maxJobs());
    }

    @Test
    void atLeastOneWorker() {
        assertThrows(IllegalArgumentException.class, () -> CopyOptions.builder().jobs(0).build());
    }
}
