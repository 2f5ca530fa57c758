package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** When the command line as the JVM decoded it is taken as it is, without reading /proc/self/cmdline. */
class RawArgsTest {

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
        "-r          | src/dir     | true",
        "''          | ''          | true",
        "a b         | ~/x-y_z.txt | true",
        "a?b         | c           | false",
        "caf\u00e9   | d           | false",
        "a\uFFFDb    | d           | false",
        "x\u007f     | d           | true",
        "x\u0080     | d           | false",
    })
    void plainAsciiButTheQuestionMark(String first, String second, boolean plain) {
        assertEquals(plain, RawArgs.plainAscii(new String[] {first, second}));
    }

    @ParameterizedTest
    @CsvSource({"-r,src,dst", "--,-,x"})
    void plainArgumentsAreTheJvmsOwn(String a, String b, String c) {
        String[] args = {a, b, c};
        assertSame(args, RawArgs.of(args));
    }
}
