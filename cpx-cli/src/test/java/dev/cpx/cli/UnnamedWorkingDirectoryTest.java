package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which word of a command line is a relative path, where the working directory was removed. */
class UnnamedWorkingDirectoryTest {

    @ParameterizedTest(name = "{0} | {1} -> {2}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
        "                                    | /a /b       | null",
        "--recursive                         | /a b        | b",
        "--suffix=.orig --jobs=4             | /a /b       | null",
        "--target-directory=d                | /a          | d",
        "--target-directory=/d               | /a          | null",
        "--plugin-path=/p:q                  | /a /b       | q",
        "--exclude=*.o --exclude-from=/x     | /a /b       | null",
        "--plan=plan                         | /a          | plan",
        "--work=/w                           |             | null",
        "--backup=numbered                   | - /b        | -",
    })
    void findsTheFirstRelativePath(String options, String operands, String relative) {
        String[] o = options == null ? new String[0] : options.trim().split(" +");
        List<String> ops = operands == null ? List.of() : List.of(operands.trim().split(" +"));
        assertEquals(relative, UnnamedWorkingDirectory.firstRelative(o, ops));
    }
}
