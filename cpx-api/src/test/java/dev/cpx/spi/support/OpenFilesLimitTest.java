package dev.cpx.spi.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The soft limit on open descriptors, as {@code /proc/self/limits} gives it, what it leaves beside the JVM's own, and how that is shared out. */
class OpenFilesLimitTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "Max open files            1024                 1048576              files | 1024",
        "Max open files            unlimited            unlimited            files | 9223372036854775807",
        "Max processes             95435                95435                processes | 1024",
    })
    void theSoftLimitIsReadFromProcSelfLimits(String line, long soft) {
        String text = "Limit                     Soft Limit           Hard Limit           Units\n"
                + "Max cpu time              unlimited            unlimited            seconds\n" + line.trim() + "\n";
        assertEquals(soft, OpenFilesLimit.parse(text.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    }

    @ParameterizedTest(name = "limit {0} -> {1}")
    @CsvSource({"0, 0", "32, 0", "64, 32", "1024, 992"})
    void whatALimitLeavesBesideTheJvmsOwn(long limit, long spare) {
        assertEquals(spare, OpenFilesLimit.spare(limit));
    }

    @ParameterizedTest(name = "limit {0} -> pairs {1}, waiting {2}, closes {3}, workers {4}")
    @CsvSource({
        "0, 2, 0, 4, 1",
        "32, 2, 0, 4, 1",
        "48, 3, 4, 4, 2",
        "64, 6, 8, 4, 4",
        "128, 18, 24, 12, 12",
        "1024, 186, 248, 124, 124",
        "2080, 384, 512, 256, 256",
        "1048576, 196602, 4096, 256, 131068",
        "9223372036854775807, 1073741823, 4096, 256, 1073741823",
    })
    void eachPartOfARunHasItsShareOfTheLimit(long limit, int pairs, int waiting, int closes, int workers) {
        assertEquals(new OpenFilesLimit.Shares(pairs, waiting, closes, workers), OpenFilesLimit.Shares.of(limit));
    }

    @Test
    void theSharesTogetherStayWithinWhatTheLimitLeaves() {
        // The fewest each part needs (two pairs, four closes, one worker) come on top only where the limit leaves fewer than 32.
        long fewest = 2L * OpenFilesLimit.Shares.FEWEST_PAIRS + OpenFilesLimit.Shares.FEWEST_CLOSES + 2;
        for (long l = 0; l <= 70_000; l++) {
            long limit = l;
            long spare = OpenFilesLimit.spare(limit);
            long held = OpenFilesLimit.Shares.of(limit).descriptors();
            long room = spare >= 32 ? spare : spare + fewest;
            assertTrue(held <= room, () -> "limit " + limit + ": " + held + " > " + room);
        }
    }
}
