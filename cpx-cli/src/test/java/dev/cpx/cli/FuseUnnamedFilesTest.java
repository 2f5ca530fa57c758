package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

/**
 * {@link FuseDestinationTest} on a FUSE file system with unnamed files ({@code O_TMPFILE}) and a
 * rename that refuses to replace, as a local one ({@link FuseFileSystem#mountWithUnnamedFiles}): the
 * one place here where a file cpx wrote unnamed and then named can fail after its naming, at its
 * close. That cpx went the unnamed way is checked in what the file system says it named.
 */
class FuseUnnamedFilesTest extends FuseDestinationTest {

    @Override
    FuseFileSystem mount(Path dir) throws Exception {
        return FuseFileSystem.mountWithUnnamedFiles(dir);
    }

    @Override
    void assertWrittenUnnamed(List<String> named, List<String> wanted) {
        assertTrue(named.containsAll(wanted), () -> "written unnamed and named: " + named + ", not all of " + wanted);
    }
}
