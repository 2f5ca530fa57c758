package dev.cpx.core.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cpx.core.fs.Stat;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * GNU's records of a command line's operands, on a real directory (the rule compares parent
 * directories by inode): the same directory entry, not merely the same file, is "named twice".
 */
class JustCreatedTest {

    @TempDir
    static Path dir;

    @ParameterizedTest(name = "{0} and {1} are the same entry: {2}")
    @CsvSource({
        "a, a, true",
        "a, ./a, true",
        "a, d/../a, true",
        "a, b, false",
        "a, d/a, false",
        "a/, a, true",
    })
    void theSameNameInTheSameDirectory(String x, String y, boolean same) throws Exception {
        Files.createDirectories(dir.resolve("d"));
        if (!Files.exists(dir.resolve("a"))) {
            Files.createFile(dir.resolve("a"));
            Files.createLink(dir.resolve("b"), dir.resolve("a"));
        }
        assertEquals(same, JustCreated.sameName(dir.resolve(x), dir.resolve(y)));
    }

    @Test
    void aHardLinkIsNotTheSourceNamedTwiceButTheSameEntryIs() throws Exception {
        Path a = Files.writeString(dir.resolve("h1"), "x");
        Path b = Files.createLink(dir.resolve("h2"), a);
        JustCreated records = new JustCreated();
        records.enable(true);
        assertEquals(true, records.recordSource(a, Stat.stat(a)));
        assertEquals(true, records.recordSource(b, Stat.stat(b)), "another name of the inode");
        assertEquals(false, records.recordSource(dir.resolve("./h1"), Stat.stat(a)), "the same entry again");
    }

    @Test
    void madeRecordsNameAndInode() throws Exception {
        Path target = Files.writeString(dir.resolve("made"), "x");
        JustCreated records = new JustCreated();
        records.enable(true);
        records.recordMade(target);
        assertEquals(true, records.made(target, Stat.lstat(target)));
        // Another name keeps the old inode alive, so the new file surely gets another.
        Files.createLink(dir.resolve("made-old"), target);
        Files.delete(target);
        Files.writeString(target, "y");
        assertEquals(false, records.made(target, Stat.lstat(target)), "replaced since: another inode");
        assertEquals(false, records.made(dir.resolve("other"), Stat.lstat(target)));
    }
}
