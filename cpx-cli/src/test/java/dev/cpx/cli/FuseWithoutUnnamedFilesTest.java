package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;

/**
 * {@link FuseDestinationTest} on a FUSE file system without unnamed files ({@code O_TMPFILE}) and
 * without a rename that refuses to replace, as NFS, CIFS and many FUSE file systems
 * ({@link FuseFileSystem#mount}).
 */
class FuseWithoutUnnamedFilesTest extends FuseDestinationTest {

    @Override
    FuseFileSystem mount(Path dir) throws Exception {
        return FuseFileSystem.mount(dir);
    }

    @Override
    void assertWrittenUnnamed(List<String> named, List<String> wanted) {
        assertEquals(List.of(), named, "no unnamed files here");
    }
}
