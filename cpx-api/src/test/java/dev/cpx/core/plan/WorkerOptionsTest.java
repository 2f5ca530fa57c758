package dev.cpx.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.Dereference;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The options a plan's worker copies with ({@link ChunkCopier#workerOptions}): its {@code -j} exactly, whatever the plan's. */
class WorkerOptionsTest {

    private static final CopyOptions PLANNED_WITHOUT_J = CopyOptions.builder().recursive(true)
            .preserve(Attribute.MODE, Attribute.TIMESTAMPS).excludes(List.of("*.o")).build();
    private static final CopyOptions PLANNED_WITH_J3 = PLANNED_WITHOUT_J.toBuilder().jobs(3).build();

    @Test
    void aGivenJobCountIsExactWhateverThePlanSaid() {
        // {-j given to the worker, jobs, maxJobs}
        int[][] table = {{1, 1, 1}, {4, 4, 4}, {32, 32, 32}};
        for (CopyOptions planned : List.of(PLANNED_WITHOUT_J, PLANNED_WITH_J3)) {
            for (int[] row : table) {
                CopyOptions o = ChunkCopier.workerOptions(planned, row[0]);
                assertEquals(row[1], o.jobs(), "jobs for -j " + row[0]);
                assertEquals(row[2], o.maxJobs(), "maxJobs for -j " + row[0]);
            }
        }
    }

    @Test
    void withoutJTheWorkerHasTheDefaultsOfACopyWithoutJ() {
        for (CopyOptions planned : List.of(PLANNED_WITHOUT_J, PLANNED_WITH_J3)) {
            CopyOptions o = ChunkCopier.workerOptions(planned, 0);
            assertEquals(CopyOptions.defaultJobs(), o.jobs());
            assertEquals(CopyOptions.defaultMaxJobs(), o.maxJobs());
            assertTrue(o.maxJobs() >= o.jobs());
        }
    }

    @Test
    void theWorkerNamesEntriesOneByOneUnderResume() {
        CopyOptions o = ChunkCopier.workerOptions(PLANNED_WITHOUT_J, 2);
        assertEquals(List.of(), o.excludes());
        assertTrue(o.resume());
        assertEquals(Dereference.NEVER, o.dereference());
        assertEquals(Dereference.ALWAYS, ChunkCopier.workerOptions(
                PLANNED_WITHOUT_J.toBuilder().dereference(Dereference.ALWAYS).build(), 2).dereference());
        assertEquals(PLANNED_WITHOUT_J.preserve(), o.preserve());
    }
}
