package dev.cpx.core.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cpx.api.Attribute;
import dev.cpx.api.BackupMode;
import dev.cpx.api.CopyOptions;
import dev.cpx.core.fs.Stat;
import java.nio.charset.StandardCharsets;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The smaller rules, a table each: modes of new entries and of --parents directories, backup names, --resume. */
class ModesAndNamesTest {

    private static CopyOptions options(String preserve) {
        CopyOptions.Builder b = CopyOptions.builder();
        for (String p : preserve.split("\\+")) {
            switch (p) {
                case "mode" -> b.preserve(Attribute.MODE);
                case "ownership" -> b.preserve(Attribute.OWNERSHIP);
                case "timestamps" -> b.preserve(Attribute.TIMESTAMPS);
                case "no-mode" -> b.defaultModes(true);
                case "" -> { }
                default -> throw new IllegalArgumentException(p);
            }
        }
        return b.build();
    }

    private static Stat stat(int mode, long size, long mtime) {
        FileTime t = FileTime.fromMillis(mtime);
        return new Stat(mode, size, 1, 2, 1, 0, 0, 0, t, t, t);
    }

    @ParameterizedTest(name = "--parents of a {0} source, preserving [{1}]: mkdir {2}, held back {3}")
    @CsvSource({
        "0755, '', 0755, 0",
        "0775, mode, 0755, 020",
        "0777, mode, 0755, 022",
        "0755, ownership, 0700, 055",
        "0750, ownership+mode, 0700, 050",
        "0700, no-mode, 0777, 0",
        "02775, '', 02775, 0",
    })
    void parentsAreMadeWithoutWhatOthersMustNotHaveYet(String source, String preserve, String mkdir, String omitted) {
        CopyOptions o = options(preserve);
        int mode = Integer.parseInt(source, 8);
        assertEquals(Integer.parseInt(mkdir, 8), ParentModes.mkdirMode(mode, o));
        assertEquals(Integer.parseInt(omitted, 8), ParentModes.omitted(mode, o));
    }

    @ParameterizedTest(name = "a parent made {0}, held back {1}, umask {2}, preserving [{3}]: ends {4}")
    @CsvSource({
        "0755, 0, 022, '', -1",
        "0700, 055, 022, ownership, 0755",
        "0700, 077, 022, ownership, 0755",
        "0700, 077, 077, ownership, -1",
        "0500, 0, 022, '', 0500",
        "02755, 0, 022, '', -1",
        "02700, 055, 022, ownership, 02755",
        "0755, 022, 022, mode, -1",
    })
    void parentsGetTheirModeAtTheEnd(String made, String omitted, String umask, String preserve, String expected) {
        int restore = ParentModes.restoreMode(Integer.parseInt(made, 8), Integer.parseInt(omitted, 8), Integer.parseInt(umask, 8),
                options(preserve));
        assertEquals(Integer.parseInt(expected, 8), restore);
    }

    @ParameterizedTest(name = "a {0} {1} with [{2}] is created {3}")
    @CsvSource({
        "file, 04755, '', 04755",
        "file, 0640, no-mode, 0666",
        "directory, 0750, no-mode, 0777",
        "fifo, 0640, no-mode, 0640",
    })
    void newEntriesGetTheSourcesModeOrTheDefaults(String kind, String mode, String preserve, String expected) {
        int type = switch (kind) {
            case "file" -> Stat.S_IFREG;
            case "directory" -> Stat.S_IFDIR;
            default -> Stat.S_IFIFO;
        };
        assertEquals(Integer.parseInt(expected, 8), CreationModes.of(stat(type | Integer.parseInt(mode, 8), 0, 0), options(preserve)));
    }

    @ParameterizedTest(name = "a directory {0} with [{1}] is made {2} while its contents are copied")
    @CsvSource({
        "0755, '', 0755",
        "0775, '', 0755",
        "0555, '', 0755",
        "0775, ownership, 0700",
        "01777, '', 01755",
    })
    void directoriesAreMadeWithoutWhatOthersMustNotHaveYet(String mode, String preserve, String expected) {
        assertEquals(Integer.parseInt(expected, 8),
                CreationModes.directoryWhileCopying(stat(Stat.S_IFDIR | Integer.parseInt(mode, 8), 0, 0), options(preserve)));
    }

    @ParameterizedTest(name = "a directory {0}, umask {1}, made {2}: final {3}")
    @CsvSource({
        "0755, 022, 0755, -1",
        "0555, 022, 0755, 0555",
        "0775, 022, 0755, -1",
        "0775, 002, 0755, 0775",
        "01777, 022, 01755, -1",
        "0500, 022, 02700, 02500",
        "0775, 022, 0700, 0755",
    })
    void newDirectoriesGetTheirModeAtTheEnd(String mode, String umask, String made, String expected) {
        int wanted = CreationModes.directoryFinalMode(Integer.parseInt(mode, 8), Integer.parseInt(umask, 8), Integer.parseInt(made, 8));
        assertEquals(Integer.parseInt(expected, 8), wanted);
    }

    @ParameterizedTest(name = "{1} backup of {0} with the highest number {3} in use: {4}")
    @CsvSource({
        "f, SIMPLE, ~, 0, f~",
        "f, SIMPLE, .bak, 3, f.bak",
        "f, NUMBERED, ~, 0, f.~1~",
        "f, NUMBERED, ~, 9, f.~10~",
        "f, EXISTING, ~, 0, f~",
        "f, EXISTING, ~, 2, f.~3~",
    })
    void backupNamesAreGnus(String name, BackupMode mode, String suffix, int highest, String expected) {
        byte[] b = Backups.backupName(name.getBytes(StandardCharsets.UTF_8), mode, suffix.getBytes(StandardCharsets.UTF_8), highest);
        assertEquals(expected, new String(b, StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{1} counts as backup number {2} of {0}")
    @CsvSource({"f, f.~1~, 1", "f, f.~12~, 12", "f, f.~01~, 0", "f, f.~x~, 0", "f, g.~1~, 0", "f, f.~~, 0", "f, f~, 0"})
    void onlyNumberedBackupsOfTheNameCount(String name, String candidate, int number) {
        assertEquals(number, Backups.backupNumber(name.getBytes(StandardCharsets.UTF_8), candidate.getBytes(StandardCharsets.UTF_8)));
    }

    @ParameterizedTest(name = "resume: source {0} B at {1}, copy {2} B at {3}, preserving [{4}]: complete {5}")
    @CsvSource({
        "10, 100, 10, 100, timestamps, true",
        "10, 100, 10, 101, timestamps, false",
        "10, 100, 9, 100, timestamps, false",
        "10, 100, 10, 101, '', true",
        "10, 100, 10, 99, '', false",
    })
    void aCopyIsCompleteWithTheSourcesSizeAndTime(long size, long mtime, long copySize, long copyMtime, String preserve,
            boolean complete) {
        assertEquals(complete, ResumeRule.complete(stat(Stat.S_IFREG | 0644, size, mtime), stat(Stat.S_IFREG | 0644, copySize, copyMtime),
                options(preserve), () -> false));
    }
}
