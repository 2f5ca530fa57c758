package dev.cpx.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
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
        /** Modification time to the nanosecond (not of the root, which the comparison's caller owns). */
        MTIME,
        /**
         * Access time to the nanosecond, of non-directories (read before any content is read), and
         * not of files with several names: reading one name moves the time all of them share.
         */
        ATIME,
        /** Owner and group ids. */
        OWNER,
        /** Which entries share an inode (hard links), and link counts. */
        LINKS,
        /** Extended attributes and ACLs, names and values (needs the native extras). */
        XATTR,
        /** Whether a regular file has holes (fewer bytes allocated than its size). */
        SPARSE
    }

    /**
     * One line per entry, keyed by its path relative to {@code root} (names decoded with surrogate
     * escapes, so odd bytes stay distinct): type, size, content digest or link target, and the details
     * asked for. Attributes are all read before any content, so reading does not move access times.
     */
    public static Map<String, String> describe(Path root, Detail... details) {
        EnumSet<Detail> want = details.length == 0 ? EnumSet.noneOf(Detail.class) : EnumSet.copyOf(Arrays.asList(details));
        Map<String, String> out = new TreeMap<>();
        Map<String, Path> paths = new TreeMap<>();
        Map<String, Object> inodes = new TreeMap<>();
        Map<Object, String> firstOfInode = new HashMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                String key = PathBytes.decode(PathBytes.of(root.relativize(p)));
                key = key.isEmpty() ? "." : key;
                var attrs = Files.readAttributes(p, "unix:mode,size,uid,gid,lastModifiedTime,lastAccessTime,nlink,ino,dev,rdev",
                        LinkOption.NOFOLLOW_LINKS);
                out.put(key, describeAttributes(key, p, attrs, want));
                paths.put(key, p);
                Object inode = List.of(attrs.get("dev"), attrs.get("ino"));
                inodes.put(key, inode);
                firstOfInode.merge(inode, key, (a, b) -> a.compareTo(b) <= 0 ? a : b);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (var e : out.entrySet()) {
            Path p = paths.get(e.getKey());
            StringBuilder sb = new StringBuilder(e.getValue());
            try {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    sb.append(" content=").append(digest(Files.readAllBytes(p)));
                }
                if (want.contains(Detail.LINKS) && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    sb.append(" inode-of=").append(firstOfInode.get(inodes.get(e.getKey())));
                }
                if (want.contains(Detail.XATTR)) {
                    sb.append(xattrs(p));
                }
            } catch (IOException x) {
                throw new UncheckedIOException(x);
            }
            e.setValue(sb.toString());
        }
        return out;
    }

    private static String describeAttributes(String key, Path p, Map<String, Object> attrs, Set<Detail> want) throws IOException {
        int mode = (Integer) attrs.get("mode");
        int type = mode & 0170000;
        StringBuilder sb = new StringBuilder();
        switch (type) {
            case 0040000 -> sb.append("dir");
            case 0100000 -> sb.append("file ").append(attrs.get("size"));
            case 0120000 -> sb.append("link -> ").append(PathBytes.decode(PathBytes.of(Files.readSymbolicLink(p))));
            case 0010000 -> sb.append("fifo");
            case 0140000 -> sb.append("socket");
            case 0020000 -> sb.append("char ").append(attrs.get("rdev"));
            case 0060000 -> sb.append("block ").append(attrs.get("rdev"));
            default -> sb.append("special ").append(Integer.toOctalString(type));
        }
        boolean link = type == 0120000;
        if (want.contains(Detail.MODE) && !link) {
            sb.append(" mode=").append(Integer.toOctalString(mode & 07777));
        }
        if (want.contains(Detail.MTIME) && !key.equals(".")) {
            sb.append(" mtime=").append(attrs.get("lastModifiedTime"));
        }
        if (want.contains(Detail.ATIME) && type != 0040000 && ((Number) attrs.get("nlink")).intValue() == 1) {
            sb.append(" atime=").append(attrs.get("lastAccessTime"));
        }
        if (want.contains(Detail.OWNER)) {
            sb.append(" owner=").append(attrs.get("uid")).append(':').append(attrs.get("gid"));
        }
        if (want.contains(Detail.LINKS) && type != 0040000) {
            sb.append(" nlink=").append(attrs.get("nlink"));
        }
        if (want.contains(Detail.SPARSE) && type == 0100000) {
            sb.append(dev.cpx.contract.Blocks.allocated(p) < (Long) attrs.get("size") ? " sparse" : " dense");
        }
        return sb.toString();
    }

    private static String xattrs(Path p) throws IOException {
        var extras = dev.cpx.api.EngineRegistry.discoverExtras();
        if (extras == null || Files.isSymbolicLink(p)) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        List<String> names = new ArrayList<>(extras.listXattrs(p, true));
        Collections.sort(names);
        for (String name : names) {
            if (!name.equals("security.selinux")) {
                sb.append(" xattr ").append(name).append('=').append(digest(extras.getXattr(p, name, true)));
            }
        }
        return sb.toString();
    }

    /** Asserts that two trees hold the same entries, compared as {@link #describe} says; a failure lists the entries that differ. */
    public static void assertSameTree(Path expected, Path actual, Detail... details) {
        Map<String, String> e = describe(expected, details);
        Map<String, String> a = describe(actual, details);
        if (e.equals(a)) {
            return;
        }
        StringBuilder diff = new StringBuilder("trees differ: " + expected + " vs " + actual + "\n");
        java.util.Set<String> keys = new java.util.TreeSet<>(e.keySet());
        keys.addAll(a.keySet());
        for (String k : keys) {
            String x = e.get(k);
            String y = a.get(k);
            if (!java.util.Objects.equals(x, y)) {
                diff.append("  ").append(k).append("\n    expected: ").append(x).append("\n    actual:   ").append(y).append('\n');
            }
        }
        org.junit.jupiter.api.Assertions.fail(diff.toString());
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
