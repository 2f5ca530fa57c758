package dev.cpx.core.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cpx.api.TargetMode;
import dev.cpx.core.fs.Stat;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Where the copies go: GNU cp's reading of the last operand, a row per case. */
class TargetsTest {

    private static final FileTime T = FileTime.fromMillis(0);

    @ParameterizedTest(name = "{0}, {1} source(s), destination {2}, resume {3}: {4}")
    @CsvSource({
        "AUTO, 1, absent, false, as",
        "AUTO, 1, file, false, as",
        "AUTO, 1, directory, false, into",
        "AUTO, 2, directory, false, into",
        "AUTO, 2, absent, false, fail: target {0}: No such file or directory",
        "AUTO, 2, file, false, fail: target {0}: Not a directory",
        "DIRECTORY, 1, absent, false, fail: target directory {0}: No such file or directory",
        "DIRECTORY, 1, file, false, fail: target directory {0}: Not a directory",
        "DIRECTORY, 3, directory, false, into",
        "NO_DIRECTORY, 1, directory, false, as",
        "NO_DIRECTORY, 1, absent, false, as",
        "AUTO, 1, directory, true, as (resuming)",
        "AUTO, 2, directory, true, into",
        "DIRECTORY, 1, directory, true, into",
    })
    void decides(TargetMode mode, int sources, String destination, boolean unfinishedCopy, String expected) {
        Stat st = switch (destination) {
            case "file" -> new Stat(Stat.S_IFREG | 0644, 1, 1, 1, 1, 0, 0, 0, T, T, T);
            case "directory" -> new Stat(Stat.S_IFDIR | 0755, 1, 1, 1, 1, 0, 0, 0, T, T, T);
            default -> null;
        };
        Targets.Decision d = Targets.decide(mode, sources, Path.of("dst"), st, st == null ? "No such file or directory" : "",
                unfinishedCopy, () -> unfinishedCopy);
        String got;
        if (d instanceof Targets.Fail f) {
            got = "fail: " + f.why().template() + ": " + f.why().reason();
        } else if (d instanceof Targets.As as) {
            got = as.resuming() ? "as (resuming)" : "as";
        } else {
            got = "into";
        }
        assertEquals(expected, got);
    }
}
