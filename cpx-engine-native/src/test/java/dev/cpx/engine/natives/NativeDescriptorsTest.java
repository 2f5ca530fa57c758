package dev.cpx.engine.natives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.spi.Descriptors;
import dev.cpx.spi.DirectoryEntries;
import dev.cpx.spi.FileStatus;
import dev.cpx.spi.support.DescriptorChannel;
import dev.cpx.spi.support.FileDescriptors;
import dev.cpx.spi.support.PathBytes;
import dev.cpx.testing.KernelFacts;
import dev.cpx.testing.ProcessFacts;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The calls relative to open directories that the scheduler's hot path makes. */
class NativeDescriptorsTest {

    @TempDir
    Path dir;

    private final Descriptors d = new NativeExtras().descriptors().orElseThrow();

    private static Path child(Path dir, byte[] name) {
        return dir.resolve(PathBytes.path(name));
    }

    /**
     * Channels closed later put their close off: a batch's worth are closed together (by close_range
     * where the kernel has it), the rest when the run's end asks, and nothing else open is touched.
     */
    @Test
    void putsTheClosesOfFilesReadOffAndClosesThemTogether() throws Exception {
        int dfd = d.openDirectory(dir);
        int kept = d.openFile(dfd, Files.createFile(dir.resolve("kept")).getFileName().toString().getBytes(StandardCharsets.US_ASCII));
        try {
            d.closePutOff();
            int files = dev.cpx.spi.support.CloseBatch.SIZE + 10;
            for (int i = 0; i < files; i++) {
                d.channel(d.createFile(dfd, ("f" + i).getBytes(StandardCharsets.US_ASCII), 0644), true, true).close();
            }
            assertEquals(2, openBelow(dir), "a channel's close is not put off");
            for (int i = 0; i < files; i++) {
                d.channelClosedLater(d.openFile(dfd, ("f" + i).getBytes(StandardCharsets.US_ASCII)), true, false).close();
            }
            assertEquals(2 + 10, openBelow(dir), "one batch closed, ten put off");
            d.closePutOff();
            assertEquals(2, openBelow(dir), "the directory and the file opened without a channel stay open");
        } finally {
            d.close(kept);
            d.close(dfd);
        }
        assertEquals(0, openBelow(dir));
    }

    /** How many of this process's descriptors are open on {@code root} or below it. */
    private static long openBelow(Path root) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).startsWith(root);
                } catch (IOException e) {
                    return false;
                }
            }).count();
        }
    }

    @Test
    void listsEveryEntryWithItsInodeAndTypeWithoutDots() throws Exception {
        Files.writeString(dir.resolve("file"), "x");
        Files.createDirectory(dir.resolve("sub"));
        Files.createSymbolicLink(dir.resolve("link"), Path.of("file"));
        byte[] odd = {'b', (byte) 0xff, 'd'};
        Files.writeString(child(dir, odd), "y");
        // More entries than one getdents64 buffer holds (32 KiB): 600 names of 200 bytes.
        for (int i = 0; i < 600; i++) {
            Files.createFile(dir.resolve(String.format("%03d", i) + "n".repeat(197)));
        }
        DirectoryEntries entries = new DirectoryEntries();
        int fd = d.openDirectory(dir);
        try {
            d.readDirectory(fd, entries);
        } finally {
            d.close(fd);
        }
        assertEquals(604, entries.size());
        Map<String, Integer> types = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            byte[] name = entries.name(i);
            Path p = child(dir, name);
            assertEquals(((Number) Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS)).longValue(), entries.inode(i));
            types.put(PathBytes.decode(name), entries.type(i));
        }
        assertEquals(DirectoryEntries.REGULAR, types.get("file"));
        assertEquals(DirectoryEntries.DIRECTORY, types.get("sub"));
        assertEquals(DirectoryEntries.SYMLINK, types.get("link"));
        assertEquals(DirectoryEntries.REGULAR, types.get(PathBytes.decode(odd)));
        assertFalse(types.containsKey(".") || types.containsKey(".."));
        int[] order = entries.byInode();
        for (int i = 1; i < order.length; i++) {
            assertTrue(entries.inode(order[i - 1]) <= entries.inode(order[i]));
        }
    }

    @Test
    void statusIsWhatTheJdkReads() throws Exception {
        Path f = Files.write(dir.resolve("f"), new byte[5000]);
        Files.setLastModifiedTime(f, FileTime.from(1_700_000_000_123_456_789L, TimeUnit.NANOSECONDS));
        Files.createLink(dir.resolve("g"), f);
        int dfd = d.openDirectory(dir);
        int fd = d.openFile(dfd, "f".getBytes(StandardCharsets.US_ASCII));
        try {
            for (FileStatus s : List.of(d.status(fd), d.status(dfd, "f".getBytes(StandardCharsets.US_ASCII)))) {
                Map<String, Object> a = Files.readAttributes(f, "unix:mode,size,dev,ino,nlink,uid,gid,rdev,lastModifiedTime");
                assertEquals(a.get("mode"), s.mode());
                assertEquals(a.get("size"), s.size());
                assertEquals(a.get("dev"), s.dev());
                assertEquals(a.get("ino"), s.ino());
                assertEquals(2, s.nlink());
                assertEquals(a.get("uid"), s.uid());
                assertEquals(a.get("gid"), s.gid());
                assertEquals(1_700_000_000L, s.mtimeSeconds());
                assertEquals(123_456_789, s.mtimeNanos());
                assertTrue(s.allocatedBytes() >= 4096 || s.allocatedBytes() == 0);
            }
            FileStatus link = d.status(dfd, "f".getBytes(StandardCharsets.US_ASCII));
            assertEquals(0100000, link.mode() & 0170000);
        } finally {
            d.close(fd);
            d.close(dfd);
        }
    }

    /** The extended attributes of an open file listed by its descriptor (flistxattr): what listxattr lists by name. */
    @Test
    void listsTheExtendedAttributesOfAnOpenFile() throws Exception {
        Path f = Files.write(dir.resolve("f"), new byte[10]);
        Path none = Files.write(dir.resolve("none"), new byte[1]);
        var view = Files.getFileAttributeView(f, java.nio.file.attribute.UserDefinedFileAttributeView.class);
        view.write("cpx.one", ByteBuffer.wrap(new byte[] {1}));
        view.write("cpx.two", ByteBuffer.wrap(new byte[0]));
        int dfd = d.openDirectory(dir);
        int fd = d.openFile(dfd, "f".getBytes(StandardCharsets.US_ASCII));
        int fdNone = d.openFile(dfd, "none".getBytes(StandardCharsets.US_ASCII));
        int opath = d.openDirectoryToWrite(dir);
        try {
            List<String> names = d.listXattrs(fd);
            assertTrue(names.containsAll(List.of("user.cpx.one", "user.cpx.two")), names::toString);
            assertEquals(new NativeExtras().listXattrs(f, true), names);
            assertEquals(new NativeExtras().listXattrs(none, true), d.listXattrs(fdNone));
            java.nio.file.FileSystemException e = assertThrows(java.nio.file.FileSystemException.class, () -> d.listXattrs(opath));
            assertEquals("/proc/self/fd/" + opath, e.getFile(), "an O_PATH descriptor (EBADF) is named as its path");
        } finally {
            d.close(opath);
            d.close(fdNone);
            d.close(fd);
            d.close(dfd);
        }
    }

    /** Owner, mode and times set through an open file, and through an O_PATH descriptor where the kernel can. */
    @Test
    void changesAttributesThroughADescriptorOrSaysItCannot() throws Exception {
        Path f = Files.write(dir.resolve("f"), new byte[10]);
        int dfd = d.openDirectory(dir);
        int fd = d.openFile(dfd, "f".getBytes(StandardCharsets.US_ASCII));
        int opath = d.openDirectoryToWrite(dir);
        try {
            int uid = (Integer) Files.getAttribute(f, "unix:uid");
            assertTrue(d.changeOwner(fd, uid, 0));
            assertEquals(0, Files.getAttribute(f, "unix:gid"));
            assertTrue(d.changeMode(fd, 04751));
            assertEquals(04751, (Integer) Files.getAttribute(f, "unix:mode") & 07777);
            assertTrue(d.changeTimes(fd, FileTime.from(1_600_000_000_111_222_333L, TimeUnit.NANOSECONDS),
                    FileTime.from(1_700_000_000_123_456_789L, TimeUnit.NANOSECONDS)));
            assertEquals(1_700_000_000_123_456_789L, Files.getLastModifiedTime(f).to(TimeUnit.NANOSECONDS));
            assertEquals(1_600_000_000_111_222_333L,
                    ((FileTime) Files.getAttribute(f, "lastAccessTime")).to(TimeUnit.NANOSECONDS));
            // O_PATH (a directory cpx made entries in): fchown and fchmod refuse it, the *at calls with
            // AT_EMPTY_PATH change it; fchmodat2 exists from Linux 6.6 on, and false sends the caller by path.
            Files.setAttribute(dir, "unix:gid", 0);
            assertTrue(d.changeOwner(opath, uid, 1));
            assertEquals(1, Files.getAttribute(dir, "unix:gid"));
            boolean mode = d.changeMode(opath, 0751);
            assertEquals(mode, ((Integer) Files.getAttribute(dir, "unix:mode") & 07777) == 0751);
            assertTrue(mode || !KernelFacts.atLeast(6, 6), "fchmodat2 on Linux " + System.getProperty("os.version"));
            boolean times = d.changeTimes(opath, FileTime.fromMillis(1000), FileTime.from(1_500_000_000_000_000_007L, TimeUnit.NANOSECONDS));
            assertEquals(times, Files.getLastModifiedTime(dir).to(TimeUnit.NANOSECONDS) == 1_500_000_000_000_000_007L);
            assertTrue(times || !KernelFacts.atLeast(6, 6));
            assertFalse(d.changeMode(-1, 0700), "not a descriptor: by path instead");
        } finally {
            d.close(opath);
            d.close(fd);
            d.close(dfd);
        }
    }

    /** "Is anything there?": null for nothing (no exception), the entry's own attributes, other failures thrown. */
    @Test
    void statusIfThereAnswersNothingThereWithNull() throws Exception {
        Files.write(dir.resolve("f"), new byte[10]);
        Files.createSymbolicLink(dir.resolve("dangling"), Path.of("nowhere"));
        byte[] f = "f".getBytes(StandardCharsets.US_ASCII);
        int dfd = d.openDirectory(dir);
        try {
            assertEquals(null, d.statusIfThere(dfd, "missing".getBytes(StandardCharsets.US_ASCII)));
            assertEquals(d.status(dfd, f).ino(), d.statusIfThere(dfd, f).ino());
            assertEquals(0120000, d.statusIfThere(dfd, "dangling".getBytes(StandardCharsets.US_ASCII)).mode() & 0170000,
                    "the link itself");
            assertEquals(d.status(dfd, f).ino(), d.statusIfThere(dev.cpx.spi.support.Fcntl.AT_FDCWD,
                    PathBytes.of(dir.resolve("f"))).ino(), "a whole path from the working directory");
            IOException notDir = assertThrows(IOException.class, () -> d.statusIfThere(dfd, "f/x".getBytes(StandardCharsets.US_ASCII)));
            assertEquals("Not a directory", dev.cpx.api.Diagnostic.reasonOf(notDir));
        } finally {
            d.close(dfd);
        }
    }

    @Test
    void opensNeitherThroughALinkNorWaitingOnAFifo() throws Exception {
        Files.writeString(dir.resolve("file"), "x");
        Files.createSymbolicLink(dir.resolve("link"), Path.of("file"));
        new ProcessBuilder("mkfifo", dir.resolve("fifo").toString()).inheritIO().start().waitFor();
        int dfd = d.openDirectory(dir);
        try {
            IOException loop = assertThrows(IOException.class, () -> d.openFile(dfd, "link".getBytes(StandardCharsets.US_ASCII)));
            assertTrue(loop.getMessage().contains("Too many levels of symbolic links"), loop.getMessage());
            // No writer: a blocking open would wait forever.
            int fifo = d.openFile(dfd, "fifo".getBytes(StandardCharsets.US_ASCII));
            assertEquals(0010000, d.status(fifo).mode() & 0170000);
            d.close(fifo);
            assertThrows(NoSuchFileException.class, () -> d.openFile(dfd, "gone".getBytes(StandardCharsets.US_ASCII)));
        } finally {
            d.close(dfd);
        }
    }

    /**
     * {@code openat2} below an open directory: the directory several names down in one call, to list
     * or to make entries in, never through a symbolic link on the way (this kernel has the call).
     */
    @Test
    void opensADirectoryBeneathInOneCallNeverThroughALink() throws Exception {
        Files.createDirectories(dir.resolve("a/b/c"));
        Files.writeString(dir.resolve("a/b/c/f"), "x");
        Files.createSymbolicLink(dir.resolve("a/l"), Path.of("b"));
        int root = d.openDirectory(dir);
        try {
            for (boolean toWrite : new boolean[] {false, true}) {
                OptionalInt c = d.openDirectoryBeneath(root, "a/b/c".getBytes(StandardCharsets.US_ASCII), toWrite);
                assertTrue(c.isPresent(), "openat2 is there on this kernel");
                try {
                    assertEquals(((Number) Files.getAttribute(dir.resolve("a/b/c"), "unix:ino")).longValue(), d.status(c.getAsInt()).ino());
                    assertEquals(1, d.status(c.getAsInt(), "f".getBytes(StandardCharsets.US_ASCII)).size());
                } finally {
                    d.close(c.getAsInt());
                }
                IOException loop = assertThrows(IOException.class,
                        () -> d.openDirectoryBeneath(root, "a/l/c".getBytes(StandardCharsets.US_ASCII), toWrite));
                assertTrue(loop.getMessage().contains("Too many levels of symbolic links"), loop.getMessage());
                assertThrows(IOException.class, () -> d.openDirectoryBeneath(root, "a/l".getBytes(StandardCharsets.US_ASCII), toWrite));
                assertThrows(NoSuchFileException.class,
                        () -> d.openDirectoryBeneath(root, "a/gone".getBytes(StandardCharsets.US_ASCII), toWrite));
            }
        } finally {
            d.close(root);
        }
    }

    @Test
    void makesDirectoriesAndUnnamedFilesNamedOnlyWhenLinked() throws Exception {
        int dfd = d.openDirectoryToWrite(dir);
        try {
            byte[] sub = {'s', (byte) 0xfe};
            d.makeDirectory(dfd, sub, 0750);
            assertEquals(0750 & ~ProcessFacts.umask(), (Integer) Files.getAttribute(child(dir, sub), "unix:mode") & 07777);
            assertThrows(FileAlreadyExistsException.class, () -> d.makeDirectory(dfd, sub, 0700));

            OptionalInt fd = d.createUnnamed(dfd, 0640);
            assertTrue(fd.isPresent(), "O_TMPFILE on the test's file system");
            try (FileChannel c = d.channel(fd.getAsInt(), true, true)) {
                assertEquals(fd.getAsInt(), FileDescriptors.of(c), "the descriptor without a NIO channel");
                c.write(ByteBuffer.wrap("complete".getBytes(StandardCharsets.US_ASCII)));
                assertEquals(List.of(child(dir, sub)), list(dir), "nothing named while written");
                d.linkUnnamed(FileDescriptors.of(c), dfd, "done".getBytes(StandardCharsets.US_ASCII));
                assertThrows(FileAlreadyExistsException.class,
                        () -> d.linkUnnamed(FileDescriptors.of(c), dfd, "done".getBytes(StandardCharsets.US_ASCII)));
            }
            assertEquals("complete", Files.readString(dir.resolve("done")));
            assertEquals(0640 & ~ProcessFacts.umask(), (Integer) Files.getAttribute(dir.resolve("done"), "unix:mode") & 07777);
        } finally {
            d.close(dfd);
        }
    }

    @Test
    void aDescriptorChannelIsANioChannelWhenUsedAsOneAndClosesItsDescriptorOnce() throws Exception {
        Files.writeString(dir.resolve("src"), "through NIO");
        int dfd = d.openDirectory(dir);
        int[] closed = new int[1];
        FileChannel in = DescriptorChannel.of(d.openFile(dfd, "src".getBytes(StandardCharsets.US_ASCII)), true, false,
                fd -> {
                    closed[0]++;
                    d.close(fd);
                });
        FileChannel unused = DescriptorChannel.of(d.openFile(dfd, "src".getBytes(StandardCharsets.US_ASCII)), true, false,
                fd -> {
                    closed[0]++;
                    d.close(fd);
                });
        d.close(dfd);
        try (FileChannel out = FileChannel.open(dir.resolve("dst"), java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            assertEquals(11, in.size());
            assertEquals(11, in.transferTo(0, 11, out));
        }
        in.close();
        in.close();
        unused.close();
        unused.close();
        assertEquals(1, closed[0], "the unused channel's descriptor closed by its closer, once; the used one by NIO");
        assertEquals("through NIO", Files.readString(dir.resolve("dst")));
        assertThrows(java.nio.channels.ClosedChannelException.class, () -> in.size());
    }

    @Test
    void opensAnExistingFileToWriteInPlaceAsGnuCpOpensTheFileItOverwrites() throws Exception {
        Path file = Files.writeString(dir.resolve("file"), "old contents");
        Files.createSymbolicLink(dir.resolve("link"), Path.of("file"));
        Files.createDirectory(dir.resolve("sub"));
        long inode = (long) Files.getAttribute(file, "unix:ino");
        int w = d.openDirectoryToWrite(dir);
        try {
            int fd = d.openToWrite(w, "file".getBytes(StandardCharsets.US_ASCII), true);
            try (FileChannel c = d.channel(fd, false, true)) {
                assertEquals(0, c.size(), "truncated");
                c.write(ByteBuffer.wrap("new".getBytes(StandardCharsets.US_ASCII)));
            }
            assertEquals("new", Files.readString(file));
            assertEquals(inode, (long) Files.getAttribute(file, "unix:ino"), "written in place, the same inode");
            // Without truncating: written over from the start, the rest kept; through a symlink, as GNU cp's open does.
            fd = d.openToWrite(w, "link".getBytes(StandardCharsets.US_ASCII), false);
            try (FileChannel c = d.channel(fd, false, true)) {
                c.write(ByteBuffer.wrap("N".getBytes(StandardCharsets.US_ASCII)));
            }
            assertEquals("New", Files.readString(file));
            assertTrue(Files.isSymbolicLink(dir.resolve("link")));
            assertThrows(NoSuchFileException.class, () -> d.openToWrite(w, "none".getBytes(StandardCharsets.US_ASCII), true));
            IOException isDirectory = assertThrows(IOException.class, () -> d.openToWrite(w, "sub".getBytes(StandardCharsets.US_ASCII), true));
            assertTrue(isDirectory.getMessage().contains("Is a directory"), isDirectory.getMessage());
        } finally {
            d.close(w);
        }
    }

    @Test
    void entriesSortByInodeKeepingTiesInTheirOrder() {
        DirectoryEntries e = new DirectoryEntries();
        long[] inodes = new long[1000];
        java.util.Random r = new java.util.Random(7);
        for (int i = 0; i < inodes.length; i++) {
            inodes[i] = r.nextInt(300);
            e.add(inodes[i], DirectoryEntries.REGULAR, ("n" + i).getBytes(StandardCharsets.US_ASCII));
        }
        int[] order = e.byInode();
        for (int i = 1; i < order.length; i++) {
            long a = e.inode(order[i - 1]);
            long b = e.inode(order[i]);
            assertTrue(a < b || (a == b && order[i - 1] < order[i]));
        }
        assertArrayEquals("n999".getBytes(StandardCharsets.US_ASCII), e.name(999));
    }

    private static List<Path> list(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.toList();
        }
    }
}
