package dev.cpx.core.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which file systems' written files may have their close put off: a table of statfs f_types. */
class WrittenClosesTest {

    @ParameterizedTest(name = "{0} ({1}): {2}")
    @CsvSource({
        "ext4, EF53, true",
        "xfs, 58465342, true",
        "tmpfs, 01021994, true",
        "nfs, 6969, false",
        "cifs, FF534D42, false",
        "smb2, FE534D42, false",
        "fuse, 65735546, false",
        "btrfs, 9123683E, true",
        "f2fs, F2F52010, true",
        "overlayfs, 794C7630, false",
        "9p, 01021997, false",
    })
    void onlyLocalFileSystemsWhoseCloseNeverFails(String name, String type, boolean putOff) {
        assertEquals(putOff, WrittenCloses.canBePutOff(OptionalLong.of(Long.parseLong(type, 16))), name);
    }

    @org.junit.jupiter.api.Test
    void notWhereTheTypeIsNotKnown() {
        assertEquals(false, WrittenCloses.canBePutOff(OptionalLong.empty()));
    }
}
