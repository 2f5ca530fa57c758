package dev.cpx.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.spi.Availability;
import dev.cpx.spi.PosixExtras;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.LinkOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How many workers a run starts with: the rule as a table, and the file systems as the JDK sees them. */
class FirstWorkersTest {

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "jobs {0}, at most {1}, {2} cores, in memory {3}: {4} up to {5}")
    @CsvSource({
            "4, 16, 2, true, 2, 2",      // the default on two cores, tmpfs to tmpfs: one per core, no more
            "4, 16, 2, false, 4, 16",    // a disk on either side: the default, growing on disk waits
            "8, 16, 4, true, 4, 4",
            "4, 16, 8, true, 4, 16",     // never more than jobs (and, as many, the pool as asked)
            "4, 16, 1, true, 1, 1",
            "4, 4, 2, true, 4, 4",       // -j 4: exactly 4
            "1, 1, 2, true, 1, 1",
            "2, 16, 0, true, 1, 1",      // at least one
    })
    void startsWithOnePerCoreOnlyWhereTheCopyIsInMemoryAndThePoolMayGrow(int jobs, int max, int cores,
            boolean inMemory, int workers, int most) {
        assertEquals(new FirstWorkers.Pool(workers, most), FirstWorkers.of(jobs, max, cores, () -> inMemory));
    }

    @Test
    void withMinusJTheFileSystemsAreNotAsked() {
        AtomicInteger asked = new AtomicInteger();
        assertEquals(new FirstWorkers.Pool(4, 4), FirstWorkers.of(4, 4, 2, () -> asked.incrementAndGet() > 0));
        assertEquals(0, asked.get());
    }

    @Test
    void withoutAnAnswerNothingIsInMemory() {
        assertFalse(FirstWorkers.inMemory(PosixExtras.none(), List.of(Path.of("/dev/shm")), Path.of("/dev/shm/new")));
    }

    @Test
    void memoryFileSystemsAsTheJdkSeesThem() throws IOException {
        Path shm = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(shm) && "tmpfs".equals(Files.getFileStore(shm).type()), "/dev/shm is not a tmpfs here");
        PosixExtras jdk = new JdkFileSystems();
        Path source = Files.createTempDirectory(shm, "first-workers");
        try {
            Path fresh = source.resolve("not/made/yet");
            assertTrue(FirstWorkers.inMemory(jdk, List.of(source), fresh), "tmpfs to a directory still to be made on tmpfs");
            assertTrue(FirstWorkers.inMemory(jdk, List.of(source, source), source.resolve("copy")));
            // /proc is no memory file system for a copy: nothing there is tmpfs or ramfs.
            assertFalse(FirstWorkers.inMemory(jdk, List.of(source, Path.of("/proc/self/status")), fresh));
            assertFalse(FirstWorkers.inMemory(jdk, List.of(source), Path.of("/proc/self/new")));
            assertFalse(FirstWorkers.inMemory(jdk, List.of(), fresh), "no sources");
            List<Path> many = new ArrayList<>(Collections.nCopies(FirstWorkers.MOST_OPERANDS + 1, source));
            assertFalse(FirstWorkers.inMemory(jdk, many, fresh), "too many operands to look at");
            if (!"tmpfs".equals(Files.getFileStore(tmp).type())) {
                assertFalse(FirstWorkers.inMemory(jdk, List.of(tmp.resolve("s")), fresh), "a source on " + Files.getFileStore(tmp).type());
                assertFalse(FirstWorkers.inMemory(jdk, List.of(source), tmp.resolve("new")));
            }
            // An operand itself is not looked at: a symbolic link's access time stays as it was.
            Path link = Files.createSymbolicLink(source.resolve("link"), Path.of("/proc/self/status"));
            FileTime old = FileTime.from(Instant.parse("2014-05-13T16:53:20Z"));
            Files.setAttribute(link, "lastAccessTime", old, LinkOption.NOFOLLOW_LINKS);
            assertTrue(FirstWorkers.inMemory(jdk, List.of(link), link), "the link's directory is on tmpfs");
            assertEquals(old, Files.getAttribute(link, "lastAccessTime", LinkOption.NOFOLLOW_LINKS));
            Files.delete(link);
        } finally {
            Files.delete(source);
        }
    }

    /** The file system types through the JDK ({@link FileStore#type()}): a real answer by another road than statfs. */
    private static final class JdkFileSystems implements PosixExtras {
        private final PosixExtras none = PosixExtras.none();

        @Override
        public OptionalLong fileSystemType(Path path) {
            try {
                String type = Files.getFileStore(path).type();
                return OptionalLong.of(type.equals("tmpfs") ? FirstWorkers.TMPFS : type.equals("ramfs") ? FirstWorkers.RAMFS : 1);
            } catch (IOException e) {
                return OptionalLong.empty(); // not there (NoSuchFileException), or not to be told
            }
        }

        @Override
        public Availability availability() {
            return none.availability();
        }

        @Override
        public void makeNode(Path path, int mode, long rdev) throws IOException {
            none.makeNode(path, mode, rdev);
        }

        @Override
        public void setTimes(Path path, FileTime lastAccess, FileTime lastModified, boolean followLinks) throws IOException {
            none.setTimes(path, lastAccess, lastModified, followLinks);
        }

        @Override
        public List<String> listXattrs(Path path, boolean followLinks) throws IOException {
            return none.listXattrs(path, followLinks);
        }

        @Override
        public byte[] getXattr(Path path, String name, boolean followLinks) throws IOException {
            return none.getXattr(path, name, followLinks);
        }

        @Override
        public void setXattr(Path path, String name, byte[] value, boolean followLinks) throws IOException {
            none.setXattr(path, name, value, followLinks);
        }
    }
}
