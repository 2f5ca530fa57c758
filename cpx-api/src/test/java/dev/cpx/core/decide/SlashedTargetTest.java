package dev.cpx.core.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.cpx.api.CopyMode;
import dev.cpx.api.ShellQuote;
import dev.cpx.core.fs.Stat;
import dev.cpx.spi.support.PathBytes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** GNU cp 9.1's messages for a non-directory copied to {@code d/}, by what {@code d/} is; the differential suite proves them. */
class SlashedTargetTest {

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource(delimiter = '|', value = {
        "file    | DATA           | ABSENT    | true  | true  | cp: cannot create regular file 'd/': Not a directory |",
        "file    | DATA           | DANGLING  | true  | true  | cp: cannot create regular file 'd/': Not a directory |",
        "file    | DATA           | FAILED    | false | false | cp: cannot stat 'd/': Not a directory |",
        "file    | ATTRIBUTES_ONLY| ABSENT    | true  | true  | cp: cannot create regular file 'd/': Not a directory |",
        "file    | HARD_LINK      | ABSENT    | true  | false | cp: cannot create hard link 'd/' to 's': No such file or directory |",
        "file    | HARD_LINK      | DANGLING  | true  | false | cp: cannot create hard link 'd/' to 's': File exists |",
        "file    | SYMBOLIC_LINK  | DANGLING  | true  | false | cp: cannot create symbolic link 'd/' to 's': File exists |",
        "symlink | DATA           | ABSENT    | true  | false | cp: cannot create symbolic link 'd/': No such file or directory |",
        "symlink | DATA           | DANGLING  | true  | false | cp: cannot create symbolic link 'd/': File exists |",
        "fifo    | DATA           | ABSENT    | true  | false | cp: cannot create fifo 'd/': No such file or directory |",
        "fifo    | DATA           | DANGLING  | true  | false | cp: cannot create fifo 'd/': File exists |",
        "device  | DATA           | ABSENT    | true  | false | cp: cannot create special file 'd/': No such file or directory |",
        // -f (and -i for a hard link): GNU removes d/ to try again, and reports that failure.
        "symlink | DATA           | DANGLING  | true  | false | cp: cannot create symbolic link 'd/': Not a directory          | -f",
        "file    | HARD_LINK      | DANGLING  | true  | false | cp: cannot create hard link 'd/' to 's': Not a directory       | -i",
        "file    | SYMBOLIC_LINK  | DANGLING  | true  | false | cp: cannot create symbolic link 'd/' to 's': Not a directory   | -f",
        "file    | SYMBOLIC_LINK  | DANGLING  | true  | false | cp: cannot create symbolic link 'd/' to 's': File exists       | -i",
        "fifo    | DATA           | DANGLING  | true  | false | cp: cannot create fifo 'd/': File exists                       | -f",
        "symlink | DATA           | ABSENT    | true  | false | cp: cannot create symbolic link 'd/': No such file or directory | -f",
        // The empty destination "": every kind fails with ENOENT, a data copy after opening the source.
        "file    | DATA           | EMPTY     | true  | true  | cp: cannot create regular file 'd/': No such file or directory |",
        "file    | ATTRIBUTES_ONLY| EMPTY     | true  | true  | cp: cannot create regular file 'd/': No such file or directory |",
        "file    | HARD_LINK      | EMPTY     | true  | false | cp: cannot create hard link 'd/' to 's': No such file or directory | -i",
        "file    | SYMBOLIC_LINK  | EMPTY     | true  | false | cp: cannot create symbolic link 'd/' to 's': No such file or directory | -f",
        "symlink | DATA           | EMPTY     | true  | false | cp: cannot create symbolic link 'd/': No such file or directory | -f",
        "fifo    | DATA           | EMPTY     | true  | false | cp: cannot create fifo 'd/': No such file or directory |",
        "device  | DATA           | EMPTY     | true  | false | cp: cannot create special file 'd/': No such file or directory |",
    })
    void reportsAsGnuCpDoes(String kind, CopyMode mode, SlashedTarget.Probe probe, boolean announced, boolean opensSource, String message,
            String flags) {
        int type = switch (kind.trim()) {
            case "symlink" -> Stat.S_IFLNK;
            case "fifo" -> Stat.S_IFIFO;
            case "device" -> Stat.S_IFCHR;
            default -> Stat.S_IFREG;
        };
        FileTime t = FileTime.fromMillis(0);
        Stat source = new Stat(type | 0644, 1, 1, 1, 1, 0, 0, 0, t, t, t);
        boolean force = flags != null && flags.contains("-f");
        boolean ask = flags != null && flags.contains("-i");
        SlashedTarget.Refusal r = SlashedTarget.refusal(Path.of("s"), PathBytes.path("d/".getBytes(StandardCharsets.US_ASCII)), source, mode, true,
                force, ask, probe,
                probe == SlashedTarget.Probe.FAILED ? "Not a directory" : "");
        assertEquals(announced, r.announced());
        assertEquals(opensSource, r.opensSource());
        assertEquals(message.trim(), "cp: " + r.why().format(ShellQuote::quote));
    }

    @Test
    void leavesADirectoryToTheUsualChecks() {
        FileTime t = FileTime.fromMillis(0);
        Stat source = new Stat(Stat.S_IFREG | 0644, 1, 1, 1, 1, 0, 0, 0, t, t, t);
        assertNull(SlashedTarget.refusal(Path.of("s"), PathBytes.path("d/".getBytes(StandardCharsets.US_ASCII)), source,
                CopyMode.DATA, true, false, true, SlashedTarget.Probe.DIRECTORY, ""));
    }
}
