package dev.cpx.core.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cpx.core.fs.Stat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** GNU cp 9.1's word for what it makes of each file type (copy.c's "cannot create ..." messages). */
class CreatedKindTest {

    @ParameterizedTest(name = "{0}, made as such: {1}")
    @CsvSource(delimiter = '|', value = {
        "S_IFREG  | true  | regular file",
        "S_IFREG  | false | regular file",
        "S_IFDIR  | true  | directory",
        "S_IFDIR  | false | directory",
        "S_IFLNK  | true  | symbolic link",
        "S_IFLNK  | false | symbolic link",
        "S_IFIFO  | true  | fifo",
        "S_IFIFO  | false | regular file",
        "S_IFCHR  | true  | special file",
        "S_IFCHR  | false | regular file",
        "S_IFBLK  | true  | special file",
        "S_IFBLK  | false | regular file",
        "S_IFSOCK | true  | special file",
        "S_IFSOCK | false | regular file",
    })
    void gnuNamesWhatItMakes(String type, boolean specialsAsSpecial, String kind) throws ReflectiveOperationException {
        int t = Stat.class.getField(type).getInt(null);
        assertEquals(kind, CreatedKind.of(t, specialsAsSpecial));
        assertEquals("cannot create " + kind + " {0}", CreatedKind.cannotCreate(t, specialsAsSpecial));
    }
}
