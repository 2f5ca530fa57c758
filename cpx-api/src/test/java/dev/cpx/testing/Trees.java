package dev.cpx.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cpx.api.PathBytes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Real trees for tests: generating them, and describing them so two trees can be compared entry by entry. */
public final class Trees {

    private Trees() {
    }

    /** What a comparison looks at besides type, content and link target. */
    public enum Detail {
        /** Permission bits including set-uid, set-gid, sticky. */
        MODE,
        /** Modification time to the nanosecond. */
        MTIME,
        /** Owner and group ids. */
        OWNER
    }

    /**
     * One line per entry, keyed by its path relative to {@code root} (names decoded with surrogate
     * escapes, so odd bytes stay distinct): type, size, content digest or link target, and the details asked for.
     */
    public static Map<String, String> describe(Path root, Detail... details) {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.forEach(p -> {
                String key = PathBytes.decode(PathBytes.of(root.relativize(p)));
                out.put(key.isEmpty() ? "." : key, describeEntry(p, details));
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static String describeEntry(Path p, Detail... details) {
        try {
            var attrs = Files.readAttributes(p, "unix:mode,size,uid,gid,lastModifiedTime", LinkOption.NOFOLLOW_LINKS);
            int mode = (Integer) attrs.get("mode");
            int type = mode & 0170000;
            StringBuilder sb = new StringBuilder();
            switch (type) {
                case 0040000 -> sb.append("dir");
                case 0100000 -> sb.append("file ").append(attrs.get("size")).append(' ').append(digest(Files.readAllBytes(p)));
                case 0120000 -> sb.append("link -> ").append(PathBytes.decode(PathBytes.of(Files.readSymbolicLink(p))));
                case 0010000 -> sb.append("fifo");
                case 0140000 -> sb.append("socket");
                default -> sb.append("special ").append(Integer.toOctalString(type));
            }
            for (Detail d : details) {
                switch (d) {
                    case MODE -> {
                        if (type != 0120000) {
                            sb.append(" mode=").append(Integer.toOctalString(mode & 07777));
                        }
                    }
                    case MTIME -> sb.append(" mtime=").append(attrs.get("lastModifiedTime"));
                    case OWNER -> sb.append(" owner=").append(attrs.get("uid")).append(':').append(attrs.get("gid"));
                }
            }
            return sb.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Asserts that two trees hold the same entries, compared as {@link #describe} says. */
    public static void assertSameTree(Path expected, Path actual, Detail... details) {
        assertEquals(render(describe(expected, details)), render(describe(actual, details)),
                "trees differ: " + expected + " vs " + actual);
    }

    private static String render(Map<String, String> tree) {
        StringBuilder sb = new StringBuilder();
        tree.forEach((k, v) -> sb.append(k).append(" : ").append(v).append('\n'));
        return sb.toString();
    }

    /** A SHA-256 of the bytes, shortened. */
    public static String digest(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A path with exactly these name bytes under {@code dir}. */
    public static Path child(Path dir, byte[] name) {
        return dir.resolve(PathBytes.path(name));
    }

    /** Random bytes, repeatable for a seed. */
    public static byte[] randomBytes(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    /**
     * Generates a tree that exercises what every copy must get right: nested and empty directories,
     * empty, small and multi-megabyte files, an executable, relative, absolute and dangling symbolic
     * links, and names with a 0xff byte, a newline, spaces, a leading dash and 255 bytes.
     */
    public static Path generate(Path root) throws IOException {
        Files.createDirectories(root);
        Path a = Files.createDirectories(root.resolve("a/b/c"));
        Files.createDirectories(root.resolve("empty-dir"));
        Files.write(root.resolve("empty"), new byte[0]);
        Files.write(root.resolve("small.txt"), "hello\n".getBytes(StandardCharsets.US_ASCII));
        Files.write(a.resolve("deep.bin"), randomBytes(70_001, 1));
        Files.write(root.resolve("a/big.bin"), randomBytes(5 * 1024 * 1024 + 17, 2));
        Path exe = root.resolve("run.sh");
        Files.write(exe, "#!/bin/sh\necho hi\n".getBytes(StandardCharsets.US_ASCII));
        Files.setAttribute(exe, "unix:mode", 0755);
        Files.setAttribute(Files.write(root.resolve("private"), new byte[] {1, 2, 3}), "unix:mode", 0600);
        Files.createSymbolicLink(root.resolve("rel-link"), Path.of("small.txt"));
        Files.createSymbolicLink(root.resolve("a/up-link"), Path.of("../small.txt"));
        Files.createSymbolicLink(root.resolve("abs-link"), root.toAbsolutePath().resolve("small.txt"));
        Files.createSymbolicLink(root.resolve("dangling"), Path.of("does/not/exist"));
        Files.createSymbolicLink(root.resolve("dir-link"), Path.of("a/b"));
        Files.write(child(root, new byte[] {'b', 'a', 'd', (byte) 0xff, 'n', 'a', 'm', 'e'}), "invalid utf-8\n".getBytes(StandardCharsets.US_ASCII));
        Path oddDir = Files.createDirectories(child(root, new byte[] {'d', (byte) 0xfe, 'r'}));
        Files.write(child(oddDir, new byte[] {(byte) 0xc3, (byte) 0x28}), new byte[] {42});
        Files.write(root.resolve("new\nline"), "nl".getBytes(StandardCharsets.US_ASCII));
        Files.write(root.resolve("with spaces and 'quotes'"), "sp".getBytes(StandardCharsets.US_ASCII));
        Files.write(root.resolve("-leading-dash"), "dash".getBytes(StandardCharsets.US_ASCII));
        Files.write(root.resolve("é unicode ☃"), "uni".getBytes(StandardCharsets.UTF_8));
        Files.write(root.resolve("n".repeat(255)), "long".getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < 40; i++) {
            Path d = Files.createDirectories(root.resolve("many/d" + (i % 5)));
            Files.write(d.resolve("f" + i), randomBytes(i * 97, 100 + i));
        }
        return root;
    }
}
