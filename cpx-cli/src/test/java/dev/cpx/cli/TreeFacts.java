package dev.cpx.cli;

import dev.cpx.testing.Trees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Trees the output tests copy, and what a summary must say about them. */
final class TreeFacts {

    /** Entries of a tree by kind, and the bytes of its regular files. */
    record Counts(long files, long directories, long symlinks, long bytes) {
    }

    private TreeFacts() {
    }

    /** {@code files} small files (0 to 4 KiB, repeatable), a hundred to a directory, under {@code root}. */
    static Path manyFiles(Path root, int files) throws IOException {
        for (int i = 0; i < files; i++) {
            Path d = Files.createDirectories(root.resolve("d" + (i / 100)));
            Files.write(d.resolve("f" + i), Trees.randomBytes((i * 7919) % 4097, i));
        }
        return root;
    }

    /** What {@code root} holds, itself included. */
    static Counts count(Path root) throws IOException {
        long files = 0;
        long dirs = 0;
        long links = 0;
        long bytes = 0;
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (Files.isSymbolicLink(p)) {
                    links++;
                } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    dirs++;
                } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    files++;
                    bytes += Files.size(p);
                }
            }
        }
        return new Counts(files, dirs, links, bytes);
    }

    /** Lines of {@code text} that are not empty. */
    static List<String> lines(String text) {
        return text.lines().filter(l -> !l.isEmpty()).toList();
    }
}
