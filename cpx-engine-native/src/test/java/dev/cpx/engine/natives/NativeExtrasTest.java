package dev.cpx.engine.natives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.api.Diagnostic;
import dev.cpx.spi.support.PathBytes;
import dev.cpx.testing.ProcessFacts;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Arrays;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Special files, nanosecond times on links, and extended attributes, on real files. */
class NativeExtrasTest {

    private static final int S_IFIFO = 0010000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFSOCK = 0140000;
    private static final int S_IFMT = 0170000;

    @TempDir
    Path dir;

    private final NativeExtras extras = new NativeExtras();

    @Test
    void isAvailableHere() {
        assertTrue(extras.availability().available(), extras.availability().reason());
        assertTrue(NativeSupport.nodes().available(), NativeSupport.nodes().reason());
    }

    /** statfs's f_type: the kernel's magic numbers for tmpfs and procfs, nothing for a path that is not there. */
    @Test
    void tellsTheFileSystemsType() throws IOException {
        assertEquals(OptionalLong.of(0x9fa0), extras.fileSystemType(Path.of("/proc/self")));
        assertEquals(OptionalLong.empty(), extras.fileSystemType(dir.resolve("not-there")));
        OptionalLong here = extras.fileSystemType(dir);
        assertTrue(here.isPresent());
        Path shm = Path.of("/dev/shm");
        Assumptions.assumeTrue(Files.isDirectory(shm) && "tmpfs".equals(Files.getFileStore(shm).type()), "/dev/shm is not a tmpfs here");
        assertEquals(OptionalLong.of(0x01021994), extras.fileSystemType(shm));
        assertEquals("tmpfs".equals(Files.getFileStore(dir).type()), here.getAsLong() == 0x01021994);
    }

    @Test
    void makesAFifoWithoutOpeningIt() throws IOException {
        Path fifo = dir.resolve("fifo");
        extras.makeNode(fifo, S_IFIFO | 0640, 0);
        int mode = mode(fifo);
        assertEquals(S_IFIFO, mode & S_IFMT);
        assertEquals(0640 & ~ProcessFacts.umask(), mode & 07777);
    }

    @Test
    void makesASocketNode() throws IOException {
        Path socket = dir.resolve("socket");
        extras.makeNode(socket, S_IFSOCK | 0755, 0);
        assertEquals(S_IFSOCK, mode(socket) & S_IFMT);
    }

    @Test
    void makesACharacterDeviceWhenAllowed() throws IOException {
        Path nul = dir.resolve("null");
        long rdev = (1 << 8) | 3; // makedev(1, 3), as /dev/null
        try {
            extras.makeNode(nul, S_IFCHR | 0666, rdev);
        } catch (FileSystemException e) {
            Assumptions.assumeFalse("Operation not permitted".equals(Diagnostic.reasonOf(e)), "not allowed to make devices here");
            throw e;
        }
        assertEquals(S_IFCHR, mode(nul) & S_IFMT);
        assertEquals(rdev, ((Number) Files.getAttribute(nul, "unix:rdev", LinkOption.NOFOLLOW_LINKS)).longValue());
    }

    @Test
    void makeNodeFailsAsTheJdkWould() throws IOException {
        Path fifo = dir.resolve("fifo");
        extras.makeNode(fifo, S_IFIFO | 0600, 0);
        assertThrows(FileAlreadyExistsException.class, () -> extras.makeNode(fifo, S_IFIFO | 0600, 0));
        NoSuchFileException e = assertThrows(NoSuchFileException.class,
                () -> extras.makeNode(dir.resolve("missing/fifo"), S_IFIFO | 0600, 0));
        assertEquals("No such file or directory", Diagnostic.reasonOf(e));
        Path file = Files.createFile(dir.resolve("file"));
        assertEquals("Not a directory", Diagnostic.reasonOf(
                assertThrows(FileSystemException.class, () -> extras.makeNode(file.resolve("x"), S_IFIFO | 0600, 0))));
    }

    @Test
    void setsTheTimesOfASymbolicLinkToTheNanosecond() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("link"), Path.of("nowhere"));
        FileTime atime = FileTime.from(Instant.ofEpochSecond(1_234_567_890L, 987_654_321));
        FileTime mtime = FileTime.from(Instant.ofEpochSecond(1_300_000_000L, 111_222_333));
        extras.setTimes(link, atime, mtime, false);
        assertEquals(mtime, Files.getLastModifiedTime(link, LinkOption.NOFOLLOW_LINKS));
        assertEquals(atime, Files.getAttribute(link, "lastAccessTime", LinkOption.NOFOLLOW_LINKS));
        assertFalse(Files.exists(dir.resolve("nowhere")));
    }

    @Test
    void setsTheTimesOfTheTargetWhenFollowingAndLeavesANullTimeAlone() throws IOException {
        Path file = Files.createFile(dir.resolve("file"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), file.getFileName());
        FileTime linkTime = Files.getLastModifiedTime(link, LinkOption.NOFOLLOW_LINKS);
        FileTime atime = FileTime.from(Instant.ofEpochSecond(1_000_000_000L, 5));
        extras.setTimes(file, atime, atime, true);
        FileTime mtime = FileTime.from(Instant.ofEpochSecond(-1L, 500_000_000)); // before 1970
        extras.setTimes(link, null, mtime, true);
        assertEquals(mtime, Files.getLastModifiedTime(file));
        assertEquals(atime, Files.getAttribute(file, "lastAccessTime"), "a null time is left as it was");
        assertEquals(linkTime, Files.getLastModifiedTime(link, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void setTimesOnAMissingFileSaysSo() {
        FileTime t = FileTime.fromMillis(0);
        assertThrows(NoSuchFileException.class, () -> extras.setTimes(dir.resolve("missing"), t, t, false));
    }

    @Test
    void userAttributesRoundTripEveryByteOfNamesAndValues() throws IOException {
        Path file = Files.createFile(dir.resolve("file"));
        byte[] value = new byte[256];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) i;
        }
        String name = "user.cpx.caf\u00e9\u00ff"; // bytes 0xE9 0xFF: not UTF-8
        try {
            extras.setXattr(file, name, value, true);
        } catch (FileSystemException e) {
            Assumptions.assumeFalse("Operation not supported".equals(Diagnostic.reasonOf(e)), "no user xattrs here");
            throw e;
        }
        extras.setXattr(file, "user.empty", new byte[0], false);
        assertTrue(extras.listXattrs(file, true).contains(name), extras.listXattrs(file, true).toString());
        assertTrue(extras.listXattrs(file, false).contains("user.empty"));
        assertArrayEquals(value, extras.getXattr(file, name, true));
        assertArrayEquals(value, extras.getXattr(file, name, false));
        assertArrayEquals(new byte[0], extras.getXattr(file, "user.empty", true));
        // The kernel saw exactly the bytes: getfattr-style hex of the name through the raw list call.
        byte[] raw = new byte[4096];
        long n = LibCMetadata.listxattr(cPath(file), raw, raw.length);
        assertTrue(new String(raw, 0, (int) n, StandardCharsets.ISO_8859_1).contains("user.cpx.caf\u00e9\u00ff\0"));
    }

    @Test
    void attributesOfLinksAndThroughLinks() throws IOException {
        Path file = Files.createFile(dir.resolve("file"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), file.getFileName());
        extras.setXattr(link, "user.through", new byte[] {7}, true);
        assertArrayEquals(new byte[] {7}, extras.getXattr(file, "user.through", false));
        assertFalse(extras.listXattrs(link, false).contains("user.through"));
        FileSystemException e = assertThrows(FileSystemException.class, () -> extras.setXattr(link, "user.x", new byte[] {1}, false));
        assertEquals("Operation not permitted", Diagnostic.reasonOf(e), "the kernel keeps user.* off symbolic links");
    }

    @Test
    void missingAttributesAndFilesSaySo() throws IOException {
        Path file = Files.createFile(dir.resolve("file"));
        FileSystemException e = assertThrows(FileSystemException.class, () -> extras.getXattr(file, "user.missing", true));
        assertEquals("No data available", Diagnostic.reasonOf(e));
        assertEquals(file.toString(), e.getFile());
        assertThrows(NoSuchFileException.class, () -> extras.listXattrs(dir.resolve("missing"), true));
        assertThrows(NoSuchFileException.class, () -> extras.getXattr(dir.resolve("missing"), "user.a", false));
        assertThrows(NoSuchFileException.class, () -> extras.setXattr(dir.resolve("missing"), "user.a", new byte[1], false));
        assertEquals("Invalid argument", Diagnostic.reasonOf(
                assertThrows(FileSystemException.class, () -> extras.getXattr(file, "user.\u20ac", true))));
    }

    @Test
    void posixAclsRoundTripAsSystemAttributes() throws IOException {
        Path original = Files.createFile(dir.resolve("original"));
        Path copy = Files.createFile(dir.resolve("copy"));
        byte[] acl = acl(new int[][] {
            {0x01, 6, -1},   // ACL_USER_OBJ rw-
            {0x02, 4, 4242}, // ACL_USER 4242 r--
            {0x04, 4, -1},   // ACL_GROUP_OBJ r--
            {0x10, 4, -1},   // ACL_MASK r--
            {0x20, 0, -1},   // ACL_OTHER ---
        });
        try {
            extras.setXattr(original, "system.posix_acl_access", acl, true);
        } catch (FileSystemException e) {
            Assumptions.assumeFalse("Operation not supported".equals(Diagnostic.reasonOf(e)), "no POSIX ACLs on this file system");
            throw e;
        }
        assertTrue(extras.listXattrs(original, true).contains("system.posix_acl_access"));
        byte[] read = extras.getXattr(original, "system.posix_acl_access", true);
        assertArrayEquals(acl, read);
        extras.setXattr(copy, "system.posix_acl_access", read, false);
        assertArrayEquals(acl, extras.getXattr(copy, "system.posix_acl_access", false));
        assertEquals(0640, mode(copy) & 0777, "the mask is the group bits");
    }

    @Test
    void aclsSetBySetfaclCopyToAnotherFile() throws Exception {
        Path original = Files.createFile(dir.resolve("original"));
        Path copy = Files.createFile(dir.resolve("copy"));
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Path subCopy = Files.createDirectory(dir.resolve("sub-copy"));
        Assumptions.assumeTrue(run(dir, "setfacl", "--version") != null, "setfacl is not installed");
        String set = run(dir, "setfacl", "-m", "u:4242:r,g:4343:rw", "original");
        Assumptions.assumeTrue(set != null, "the file system refuses ACLs");
        assertNotNull(run(dir, "setfacl", "-d", "-m", "u:4242:rx", "sub"));
        for (String name : extras.listXattrs(original, false)) {
            extras.setXattr(copy, name, extras.getXattr(original, name, false), false);
        }
        for (String name : extras.listXattrs(sub, false)) {
            extras.setXattr(subCopy, name, extras.getXattr(sub, name, false), false);
        }
        assertTrue(extras.listXattrs(sub, false).contains("system.posix_acl_default"), extras.listXattrs(sub, false).toString());
        assertEquals(body(run(dir, "getfacl", "-n", "original")), body(run(dir, "getfacl", "-n", "copy")));
        assertEquals(body(run(dir, "getfacl", "-n", "sub")), body(run(dir, "getfacl", "-n", "sub-copy")));
        assertTrue(run(dir, "getfacl", "-n", "copy").contains("group:4343:rw-"));
    }

    /** getfacl output without its "# file:" line. */
    private static String body(String getfacl) {
        assertNotNull(getfacl);
        return getfacl.lines().filter(l -> !l.startsWith("# file:")).reduce("", (a, b) -> a + b + "\n");
    }

    /** A {@code system.posix_acl_access} value: version 2, then {tag, perm, id} entries, little-endian. */
    private static byte[] acl(int[][] entries) {
        ByteBuffer b = ByteBuffer.allocate(4 + 8 * entries.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(2);
        for (int[] e : entries) {
            b.putShort((short) e[0]).putShort((short) e[1]).putInt(e[2]);
        }
        return b.array();
    }

    @Test
    void namesThatAreNotUtf8ReachTheKernelIntact() throws IOException {
        byte[] name = {'o', 'd', 'd', (byte) 0xFF, (byte) 0xC3, '.', 'x'};
        Path odd = dir.resolve(PathBytes.path(name));
        Assumptions.assumeTrue(PathBytes.exact(), "exact path bytes need --add-opens java.base/sun.nio.fs");
        extras.makeNode(odd, S_IFIFO | 0600, 0);
        FileTime t = FileTime.from(Instant.ofEpochSecond(1_600_000_000L, 123_456_789));
        extras.setTimes(odd, t, t, false);
        Path oddFile = dir.resolve(PathBytes.path(Arrays.copyOf(name, name.length - 1)));
        Files.createFile(oddFile);
        extras.setXattr(oddFile, "user.cpx", new byte[] {1}, false);
        try (var list = Files.list(dir)) {
            Path found = list.filter(p -> Arrays.equals(PathBytes.of(p.getFileName()), name)).findFirst().orElseThrow();
            assertEquals(t, Files.getLastModifiedTime(found, LinkOption.NOFOLLOW_LINKS));
            assertEquals(S_IFIFO, mode(found) & S_IFMT);
        }
        assertArrayEquals(new byte[] {1}, extras.getXattr(oddFile, "user.cpx", false));
    }

    private static int mode(Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
    }

    /** Output of a command run in {@code dir}, or null if it is missing or fails. */
    private static String run(Path dir, String... command) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            return null;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
    }

    /** NUL-terminated bytes of a path, for calling {@link LibC} directly. */
    private static byte[] cPath(Path p) {
        byte[] b = PathBytes.of(p);
        return Arrays.copyOf(b, b.length + 1);
    }
}
