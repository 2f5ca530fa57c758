package dev.cpx.engine.natives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.spi.support.Fcntl;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JDK's {@code openat} ({@link JdkOpenat}) answers as the C library's through JNA does: a
 * descriptor of the same file, or the same errno, for every outcome the engine meets.
 */
class JdkOpenatTest {

    @TempDir
    Path dir;

    @Test
    void reachableOnThisJdk() {
        // JDK 17 to 23 without flags (the JDK's lookup), 24 and later with the launchers' --add-opens.
        assertTrue(JdkOpenat.AVAILABLE, "the JDK's openat0 is reachable (Runtime " + Runtime.version() + ")");
    }

    @Test
    void answersAsTheCLibraryDoes() throws Exception {
        Files.writeString(dir.resolve("file"), "x");
        Files.createDirectory(dir.resolve("sub"));
        Files.createSymbolicLink(dir.resolve("link"), Path.of("file"));
        record Case(String name, int flags, int mode) {
        }
        List<Case> cases = List.of(
                new Case("file", Fcntl.OPEN_ENTRY, 0),
                new Case("missing", Fcntl.OPEN_ENTRY, 0),
                new Case("link", Fcntl.OPEN_ENTRY, 0),
                new Case("sub", Fcntl.OPEN_DIRECTORY, 0),
                new Case("file", Fcntl.OPEN_DIRECTORY, 0),
                new Case("file/x", Fcntl.OPEN_ENTRY, 0),
                new Case("file", Fcntl.CREATE_FILE, 0644),
                new Case("new-by-jdk", Fcntl.CREATE_FILE, 0600),
                new Case("missing/x", Fcntl.CREATE_FILE, 0600),
                new Case("sub", Fcntl.PIN_ENTRY, 0),
                new Case(".", Fcntl.CREATE_UNNAMED, 0600),
                new Case("x".repeat(256), Fcntl.OPEN_ENTRY, 0));
        int directory = LibCAt.openat(Fcntl.AT_FDCWD, cString(dir.toString()), Fcntl.OPEN_DIRECTORY, 0);
        assertTrue(directory >= 0);
        List<String> byJdk = new ArrayList<>();
        List<String> byJna = new ArrayList<>();
        try {
            for (Case c : cases) {
                ByteBuffer name = ByteBuffer.allocateDirect(c.name.length() + 1).put(cString(c.name));
                long address = LibCBuffers.address(name);
                int viaJdk = JdkOpenat.openat(directory, address, c.flags, c.mode);
                if (c.name.startsWith("new-")) {
                    // The second create of the same name must fail as the first's would: remove it in between.
                    Files.delete(dir.resolve(c.name));
                }
                int viaJna = LibCBuffers.openat(directory, address, c.flags, c.mode);
                int jnaErrno = viaJna < 0 ? LibC.errno() : 0;
                byJdk.add(c + " -> " + outcome(viaJdk < 0 ? 0 : viaJdk, viaJdk < 0 ? -viaJdk : 0));
                byJna.add(c + " -> " + outcome(viaJna < 0 ? 0 : viaJna, jnaErrno));
                if (viaJdk >= 0) {
                    if (!c.name.startsWith("new-")) {
                        assertEquals(stat(viaJdk), stat(viaJna), c.toString());
                    }
                    LibC.close(viaJdk);
                    LibC.close(viaJna);
                }
            }
        } finally {
            LibC.close(directory);
        }
        assertEquals(byJna, byJdk);
        assertTrue(byJdk.stream().anyMatch(s -> s.endsWith("errno 2")) && byJdk.stream().anyMatch(s -> s.endsWith("errno 36")) && byJdk.stream().anyMatch(s -> s.endsWith("opened")),
                "the table has both outcomes: " + byJdk);
    }

    private static String outcome(int fd, int errno) {
        return errno == 0 ? "opened" : "errno " + errno;
    }

    /** The file a descriptor names (device and inode; an unnamed file's differ, so its type and mode). */
    private static String stat(int fd) throws Exception {
        var s = NativeDescriptors.INSTANCE.status(fd);
        return s.nlink() == 0 ? "unnamed " + Integer.toOctalString(s.mode()) : s.dev() + ":" + s.ino();
    }

    private static byte[] cString(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        byte[] c = new byte[b.length + 1];
        System.arraycopy(b, 0, c, 0, b.length);
        return c;
    }
}
