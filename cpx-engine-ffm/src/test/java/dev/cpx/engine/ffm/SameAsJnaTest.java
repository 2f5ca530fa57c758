package dev.cpx.engine.ffm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.engine.natives.NativeExtras;
import dev.cpx.spi.Descriptors;
import dev.cpx.spi.DirectoryEntries;
import dev.cpx.spi.FileStatus;
import dev.cpx.spi.PosixExtras;
import dev.cpx.spi.support.PathBytes;
import dev.cpx.testing.KernelFacts;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every method of the FFM {@link PosixExtras} and {@link Descriptors} does what the JNA ones do, on
 * the same real files: the same results, and for failures the same exception types and messages.
 */
class SameAsJnaTest {

    private final PosixExtras ffm = new FfmExtras();
    private final PosixExtras jna = new NativeExtras();
    private final Descriptors ffmAt = ffm.descriptors().orElseThrow();
    private final Descriptors jnaAt = jna.descriptors().orElseThrow();

    @TempDir
    Path dir;

    @BeforeEach
    void onJdk22() {
        OnJdk22.assume();
    }

    /** What a call did: its result, or its exception's type and message. */
    @FunctionalInterface
    interface Call {
        Object run() throws Exception;
    }

    private static String outcome(Call call) {
        try {
            Object result = call.run();
            return "ok " + (result instanceof byte[] b ? new String(b, StandardCharsets.ISO_8859_1) : String.valueOf(result));
        } catch (Exception e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }

    private static void same(Call ffmCall, Call jnaCall) {
        assertEquals(outcome(jnaCall), outcome(ffmCall));
    }

    @Test
    void failuresAreTheSameExceptionsWithTheSameWords() throws IOException {
        Path missing = dir.resolve("missing/x");
        Path file = Files.writeString(dir.resolve("file"), "x");
        for (PosixExtras e : List.of(ffm, jna)) {
            assertTrue(outcome(() -> e.listXattrs(missing, true)).startsWith("java.nio.file.NoSuchFileException"));
        }
        same(() -> ffm.listXattrs(missing, true), () -> jna.listXattrs(missing, true));
        same(() -> ffm.getXattr(file, "user.none", true), () -> jna.getXattr(file, "user.none", true));
        same(() -> { ffm.setXattr(missing, "user.a", new byte[1], true); return null; }, () -> { jna.setXattr(missing, "user.a", new byte[1], true); return null; });
        same(() -> ffm.getXattr(file, "user.\u0100", true), () -> jna.getXattr(file, "user.\u0100", true));
        same(() -> { ffm.makeNode(file, 010644, 0); return null; }, () -> { jna.makeNode(file, 010644, 0); return null; });
        same(() -> { ffm.setTimes(missing, null, null, false); return null; }, () -> { jna.setTimes(missing, null, null, false); return null; });
        same(() -> ffm.createUnnamed(missing, 0644), () -> jna.createUnnamed(missing, 0644));
        same(() -> ffmAt.openDirectory(missing), () -> jnaAt.openDirectory(missing));
        same(() -> ffmAt.openDirectory(file), () -> jnaAt.openDirectory(file));
        int d1 = ffmAt.openDirectory(dir);
        int d2 = jnaAt.openDirectory(dir);
        try {
            byte[] none = "none".getBytes(StandardCharsets.US_ASCII);
            same(() -> ffmAt.openFile(d1, none), () -> jnaAt.openFile(d2, none));
            same(() -> ffmAt.status(d1, none), () -> jnaAt.status(d2, none));
            byte[] name = PathBytes.of(file.getFileName());
            same(() -> { ffmAt.makeDirectory(d1, name, 0755); return null; }, () -> { jnaAt.makeDirectory(d2, name, 0755); return null; });
            byte[] tooLong = "n".repeat(300).getBytes(StandardCharsets.US_ASCII);
            same(() -> ffmAt.openFile(d1, tooLong), () -> jnaAt.openFile(d2, tooLong));
            same(() -> ffmAt.status(-1), () -> jnaAt.status(-1));
            same(() -> { ffmAt.readDirectory(-1, new DirectoryEntries()); return null; }, () -> { jnaAt.readDirectory(-1, new DirectoryEntries()); return null; });
            same(() -> ffmAt.openToWrite(d1, none, true), () -> jnaAt.openToWrite(d2, none, true));
            byte[] self = ".".getBytes(StandardCharsets.US_ASCII);
            same(() -> ffmAt.openToWrite(d1, self, true), () -> jnaAt.openToWrite(d2, self, true));
        } finally {
            ffmAt.close(d1);
            jnaAt.close(d2);
        }
    }

    @Test
    void extendedAttributesAndTimes() throws IOException {
        Path a = Files.writeString(dir.resolve("a"), "a");
        Path b = Files.writeString(dir.resolve("b"), "b");
        byte[] big = new byte[4000];
        big[3999] = 7;
        ffm.setXattr(a, "user.one", "1".getBytes(StandardCharsets.US_ASCII), true);
        ffm.setXattr(a, "user.big", big, false);
        jna.setXattr(b, "user.one", "1".getBytes(StandardCharsets.US_ASCII), true);
        jna.setXattr(b, "user.big", big, false);
        assertEquals(sorted(jna.listXattrs(b, true)), sorted(ffm.listXattrs(a, true)));
        assertEquals(sorted(jna.listXattrs(a, false)), sorted(ffm.listXattrs(b, false)));
        assertArrayEquals(big, ffm.getXattr(b, "user.big", true));
        assertArrayEquals(jna.getXattr(a, "user.one", false), ffm.getXattr(b, "user.one", false));
        ffm.removeXattr(a, "user.one", true);
        ffm.removeXattr(a, "user.one", true);
        assertEquals(List.of("user.big"), jna.listXattrs(a, true));

        Path link = Files.createSymbolicLink(dir.resolve("link"), a);
        FileTime atime = FileTime.from(Instant.parse("2001-02-03T04:05:06.123456789Z"));
        FileTime mtime = FileTime.from(Instant.parse("2011-12-13T14:15:16.987654321Z"));
        ffm.setTimes(link, atime, mtime, false);
        assertEquals(mtime, Files.getLastModifiedTime(link, LinkOption.NOFOLLOW_LINKS));
        assertEquals(atime, Files.getAttribute(link, "lastAccessTime", LinkOption.NOFOLLOW_LINKS));
        assertFalse(mtime.equals(Files.getLastModifiedTime(a)), "the link's target keeps its times");
        ffm.setTimes(a, null, mtime, true);
        assertEquals(mtime, Files.getLastModifiedTime(a));
    }

    private static List<String> sorted(List<String> names) {
        List<String> copy = new ArrayList<>(names);
        copy.sort(null);
        return copy;
    }

    @Test
    void nodesUnnamedFilesAndAllocation() throws IOException {
        Path fifo = dir.resolve("fifo");
        ffm.makeNode(fifo, 010640, 0);
        assertEquals("p", Files.getAttribute(fifo, "unix:mode", LinkOption.NOFOLLOW_LINKS) instanceof Integer m && (m & 0170000) == 010000 ? "p" : "?");
        try (FileChannel unnamed = ffm.createUnnamed(dir, 0600).orElseThrow()) {
            unnamed.write(java.nio.ByteBuffer.wrap("hello".getBytes(StandardCharsets.US_ASCII)), 0);
            ffm.linkUnnamed(unnamed, dir.resolve("named"));
            same(() -> { ffm.linkUnnamed(unnamed, dir.resolve("named")); return null; },
                    () -> { jna.linkUnnamed(unnamed, dir.resolve("named")); return null; });
        }
        assertEquals("hello", Files.readString(dir.resolve("named")));
        Path sparse = dir.resolve("sparse");
        try (FileChannel c = FileChannel.open(sparse, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
            c.write(java.nio.ByteBuffer.wrap(new byte[] {1}), 8 << 20);
            assertEquals(jna.allocatedBytes(c), ffm.allocatedBytes(c));
        }
    }

    @Test
    void fileSystemTypesAsJnaTellsThem() {
        for (Path p : List.of(dir, Path.of("/proc/self"), Path.of("/dev/shm"), Path.of("/"), dir.resolve("not-there"))) {
            assertEquals(jna.fileSystemType(p), ffm.fileSystemType(p), p.toString());
        }
        assertTrue(ffm.fileSystemType(Path.of("/proc/self")).isPresent());
    }

    /** "Is anything there?" and owner, mode and times through a descriptor: the same answers as JNA's, O_PATH's false included. */
    @Test
    void statusIfThereAndAttributesThroughADescriptorAsJnaDoes() throws IOException {
        Path f = Files.writeString(dir.resolve("f"), "data");
        Files.createSymbolicLink(dir.resolve("dangling"), Path.of("nowhere"));
        int ffmDir = ffmAt.openDirectory(dir);
        int jnaDir = jnaAt.openDirectory(dir);
        int fd = ffmAt.openFile(ffmDir, "f".getBytes(StandardCharsets.US_ASCII));
        int opath = ffmAt.openDirectoryToWrite(dir);
        try {
            for (String name : List.of("f", "missing", "dangling", "f/x", "missing/x")) {
                byte[] n = name.getBytes(StandardCharsets.US_ASCII);
                same(() -> ffmAt.statusIfThere(ffmDir, n), () -> jnaAt.statusIfThere(jnaDir, n));
            }
            assertEquals(null, ffmAt.statusIfThere(ffmDir, "missing".getBytes(StandardCharsets.US_ASCII)));
            int uid = (Integer) Files.getAttribute(f, "unix:uid");
            assertTrue(ffmAt.changeOwner(fd, uid, 0));
            assertTrue(ffmAt.changeMode(fd, 04751));
            assertEquals(04751, (Integer) Files.getAttribute(f, "unix:mode") & 07777);
            FileTime atime = FileTime.from(Instant.ofEpochSecond(1_600_000_000L, 111_222_333L));
            FileTime mtime = FileTime.from(Instant.ofEpochSecond(1_700_000_000L, 123_456_789L));
            assertTrue(ffmAt.changeTimes(fd, atime, mtime));
            assertEquals(mtime, Files.getLastModifiedTime(f));
            assertEquals(atime, Files.getAttribute(f, "lastAccessTime"));
            Files.getFileAttributeView(f, java.nio.file.attribute.UserDefinedFileAttributeView.class)
                    .write("cpx.three", java.nio.ByteBuffer.wrap(new byte[] {3}));
            same(() -> ffmAt.listXattrs(fd), () -> jnaAt.listXattrs(fd));
            assertTrue(ffmAt.listXattrs(fd).contains("user.cpx.three"));
            same(() -> ffmAt.listXattrs(opath), () -> jnaAt.listXattrs(opath));
            // O_PATH: changed by the *at calls with AT_EMPTY_PATH (fchmodat2 from Linux 6.6), as JNA does.
            assertTrue(ffmAt.changeOwner(opath, uid, 1));
            assertEquals(1, Files.getAttribute(dir, "unix:gid"));
            boolean mode = ffmAt.changeMode(opath, 0751);
            assertEquals(mode, ((Integer) Files.getAttribute(dir, "unix:mode") & 07777) == 0751);
            assertEquals(jnaAt.changeMode(opath, 0750), mode);
            assertTrue(mode || !KernelFacts.atLeast(6, 6));
            boolean times = ffmAt.changeTimes(opath, atime, mtime);
            assertEquals(times, mtime.equals(Files.getLastModifiedTime(dir)));
            assertEquals(jnaAt.changeTimes(opath, atime, mtime), times);
            assertTrue(times || !KernelFacts.atLeast(6, 6));
            same(() -> ffmAt.changeMode(-1, 0700), () -> jnaAt.changeMode(-1, 0700));
        } finally {
            ffmAt.close(opath);
            ffmAt.close(fd);
            jnaAt.close(jnaDir);
            ffmAt.close(ffmDir);
        }
    }

    /** {@code openat2} beneath an open directory: the same directory, the same refusals, as JNA's. */
    @Test
    void opensBeneathAsJnaDoes() throws IOException {
        Files.createDirectories(dir.resolve("a/b/c"));
        Files.createSymbolicLink(dir.resolve("a/l"), Path.of("b"));
        int f = ffmAt.openDirectory(dir);
        int j = jnaAt.openDirectory(dir);
        try {
            for (String path : new String[] {"a/b/c", "a/l/c", "a/l", "a/gone", "a/b/c/../../.."}) {
                for (boolean toWrite : new boolean[] {false, true}) {
                    byte[] p = path.getBytes(StandardCharsets.US_ASCII);
                    same(() -> inode(ffmAt, ffmAt.openDirectoryBeneath(f, p, toWrite)), () -> inode(jnaAt, jnaAt.openDirectoryBeneath(j, p, toWrite)));
                }
            }
        } finally {
            ffmAt.close(f);
            jnaAt.close(j);
        }
    }

    /** The inode of the directory {@code fd} holds, which is closed then. */
    private static Object inode(Descriptors at, java.util.OptionalInt fd) throws IOException {
        if (fd.isEmpty()) {
            return "unsupported";
        }
        try {
            return at.status(fd.getAsInt()).ino();
        } finally {
            at.close(fd.getAsInt());
        }
    }

    @Test
    void descriptorsListStatMakeAndLinkAsJnaDoes() throws IOException {
        Files.writeString(dir.resolve("f"), "data");
        Files.createDirectory(dir.resolve("d"));
        Files.createSymbolicLink(dir.resolve("l"), Path.of("f"));
        Path odd = dir.resolve(PathBytes.path(new byte[] {'x', (byte) 0xff, 'y'}));
        Files.writeString(odd, "odd");
        Files.setPosixFilePermissions(dir.resolve("f"), PosixFilePermissions.fromString("rw-r-----"));
        assertEquals(listing(jnaAt, dir), listing(ffmAt, dir));
        int d = ffmAt.openDirectory(dir);
        int w = ffmAt.openDirectoryToWrite(dir);
        try {
            FileStatus viaFfm = ffmAt.status(d, "f".getBytes(StandardCharsets.US_ASCII));
            int j = jnaAt.openDirectory(dir);
            try {
                assertEquals(jnaAt.status(j, "f".getBytes(StandardCharsets.US_ASCII)), viaFfm);
                assertEquals(jnaAt.status(j, "l".getBytes(StandardCharsets.US_ASCII)), ffmAt.status(d, "l".getBytes(StandardCharsets.US_ASCII)));
            } finally {
                jnaAt.close(j);
            }
            int fd = ffmAt.openFile(d, "f".getBytes(StandardCharsets.US_ASCII));
            assertEquals(viaFfm, ffmAt.status(fd));
            try (FileChannel c = ffmAt.channel(fd, true, false)) {
                java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(10);
                c.read(buffer, 0);
                assertEquals("data", new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII));
            }
            assertTrue(outcome(() -> ffmAt.openFile(d, "l".getBytes(StandardCharsets.US_ASCII))).contains("Too many levels of symbolic links"));
            ffmAt.makeDirectory(w, "made".getBytes(StandardCharsets.US_ASCII), 0750);
            assertTrue(Files.isDirectory(dir.resolve("made")));
            int unnamed = ffmAt.createUnnamed(w, 0640).orElseThrow();
            try (FileChannel c = ffmAt.channel(unnamed, true, true)) {
                c.write(java.nio.ByteBuffer.wrap("new".getBytes(StandardCharsets.US_ASCII)), 0);
                ffmAt.linkUnnamed(unnamed, w, "linked".getBytes(StandardCharsets.US_ASCII));
            }
            assertEquals("new", Files.readString(dir.resolve("linked")));
            int over = ffmAt.openToWrite(w, "linked".getBytes(StandardCharsets.US_ASCII), true);
            try (FileChannel c = ffmAt.channel(over, false, true)) {
                assertEquals(0, c.size());
                c.write(java.nio.ByteBuffer.wrap("in place".getBytes(StandardCharsets.US_ASCII)));
            }
            assertEquals("in place", Files.readString(dir.resolve("linked")));
        } finally {
            ffmAt.close(d);
            ffmAt.close(w);
        }
    }

    /** Name to type and inode, as {@code readDirectory} gives them. */
    private static Map<String, String> listing(Descriptors at, Path directory) throws IOException {
        int fd = at.openDirectory(directory);
        try {
            DirectoryEntries entries = new DirectoryEntries();
            at.readDirectory(fd, entries);
            Map<String, String> byName = new TreeMap<>();
            for (int i = 0; i < entries.size(); i++) {
                byName.put(new String(entries.name(i), StandardCharsets.ISO_8859_1), entries.type(i) + " " + entries.inode(i));
            }
            return byName;
        } finally {
            at.close(fd);
        }
    }
}
