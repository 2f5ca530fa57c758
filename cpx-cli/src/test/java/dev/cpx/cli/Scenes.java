package dev.cpx.cli;

import dev.cpx.api.EngineRegistry;
import dev.cpx.spi.PosixExtras;
import dev.cpx.testing.Trees;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Builds the scenes the differential tests copy: the same tree, to the byte and to the nanosecond,
 * each time, so GNU cp and cpx can each get a fresh copy of it.
 */
final class Scenes {

    /** The time every entry of a scene gets, so preserved times compare equal between scenes. */
    static final FileTime MTIME = FileTime.from(Instant.ofEpochSecond(1_500_000_000L, 123_456_789));
    static final FileTime ATIME = FileTime.from(Instant.ofEpochSecond(1_400_000_000L, 987_654_321));

    private static final PosixExtras EXTRAS = EngineRegistry.discoverExtras();

    private Scenes() {
    }

    static Path file(Path p, String content) throws IOException {
        Files.createDirectories(p.getParent());
        return Files.writeString(p, content, StandardCharsets.UTF_8);
    }

    static Path file(Path p, String content, int mode) throws IOException {
        file(p, content);
        Files.setAttribute(p, "unix:mode", mode);
        return p;
    }

    static void mode(Path p, int mode) throws IOException {
        Files.setAttribute(p, "unix:mode", mode);
    }

    /**
     * The standard source tree {@code src}: nested and empty directories, small, large, empty,
     * executable, set-uid and private files, a read-only directory, relative, absolute and dangling
     * links, hard links across directories, a FIFO, a socket, odd names.
     */
    static Path standardTree(Path scene) throws IOException {
        Path src = Files.createDirectories(scene.resolve("src"));
        file(src.resolve("a/b/c/deep.txt"), "deep\n");
        Files.createDirectories(src.resolve("empty-dir"));
        file(src.resolve("small.txt"), "hello\n");
        Files.write(src.resolve("a/big.bin"), Trees.randomBytes(300_000, 5));
        Files.write(src.resolve("empty"), new byte[0]);
        file(src.resolve("run.sh"), "#!/bin/sh\necho hi\n", 0755);
        file(src.resolve("suid"), "s", 04755);
        file(src.resolve("private"), "p", 0600);
        file(src.resolve("ro-dir/inside"), "ro", 0444);
        Files.createSymbolicLink(src.resolve("rel-link"), Path.of("small.txt"));
        Files.createSymbolicLink(src.resolve("a/up-link"), Path.of("../small.txt"));
        // Absolute, into the scene (each scene's path is replaced by <scene> when scenes are compared).
        Files.createSymbolicLink(src.resolve("abs-link"), src.toAbsolutePath().resolve("small.txt"));
        Files.createSymbolicLink(src.resolve("dangling"), Path.of("does/not/exist"));
        Files.createSymbolicLink(src.resolve("dir-link"), Path.of("a/b"));
        file(src.resolve("hard1"), "shared inode\n");
        Files.createLink(src.resolve("a/hard2"), src.resolve("hard1"));
        Files.createLink(src.resolve("a/b/hard3"), src.resolve("hard1"));
        EXTRAS.makeNode(src.resolve("fifo"), 0010644, 0);
        EXTRAS.makeNode(src.resolve("socket"), 0140755, 0);
        Files.write(Trees.child(src, new byte[] {'b', 'a', 'd', (byte) 0xff}), new byte[] {1});
        file(src.resolve("new\nline"), "nl");
        file(src.resolve("it's here"), "q");
        file(src.resolve("-dash"), "d");
        mode(src.resolve("ro-dir"), 0555);
        fixTimes(src);
        return src;
    }

    /** A sparse file: 8 MiB with one 4 KiB block of data in the middle. */
    static Path sparseFile(Path p) throws IOException {
        return sparseFile(p, 8L << 20);
    }

    /** A sparse file of {@code size} bytes with one 4 KiB block of data in the middle and a last byte. */
    static Path sparseFile(Path p, long size) throws IOException {
        Files.createDirectories(p.getParent());
        try (FileChannel c = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.wrap(Trees.randomBytes(4096, 3)), size / 2);
            c.truncate(size);
            c.write(ByteBuffer.wrap(new byte[] {0}), size - 1);
        }
        return p;
    }

    /** Gives every entry under {@code root} (links themselves included) the scene's times, deepest first. */
    static void fixTimes(Path root) throws IOException {
        List<Path> all;
        try (Stream<Path> walk = Files.walk(root)) {
            all = walk.sorted(Comparator.comparingInt(Path::getNameCount).reversed()).toList();
        }
        for (Path p : all) {
            EXTRAS.setTimes(p, ATIME, MTIME, !Files.isSymbolicLink(p));
        }
    }

    static boolean exists(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }
}
