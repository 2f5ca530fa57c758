package dev.cpx.spi.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The soft limit on open descriptors, as {@code /proc/self/limits} gives it, and what it leaves beside the JVM's own. */
class OpenFilesLimitTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "Max open files            1024                 1048576              files | 1024",
        "Max open files            unlimited            unlimited            files | 9223372036854775807",
        "Max processes             95435                95435                processes | 9223372036854775807",
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
}
