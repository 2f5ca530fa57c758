package dev.cpx.cli;

import dev.cpx.testing.Trees;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Trees and commands for the tests of plans ({@code --plan}, {@code --work}, {@code --finish}). */
final class ClusterTrees {

    private ClusterTrees() {
    }

    /**
     * {@link Trees#generate}'s tree plus what a plan must carry across chunks: hard links in different
     * directories, a FIFO, extended attributes on a file and a directory, another owner, dated and
     * read-only directories, and {@code spread} more small files in 20 directories.
     */
    static Path rich(Path root, int spread) throws IOException, InterruptedException {
        Trees.generate(root);
        Files.createLink(root.resolve("a/hard1"), root.resolve("many/d0/f0"));
        Files.createLink(root.resolve("hard2"), root.resolve("many/d0/f0"));
        Files.createLink(root.resolve("many/d3/hard3"), root.resolve("a/b/c/deep.bin"));
        exec("mkfifo", root.resolve("fifo").toString());
        xattr(root.resolve("small.txt"), "user.cpx", "file value");
        xattr(root.resolve("a/b"), "user.cpx", "dir value");
        Files.setAttribute(root.resolve("private"), "unix:uid", 4321);
        Files.setAttribute(root.resolve("private"), "unix:gid", 4322);
        for (int i = 0; i < spread; i++) {
            Path d = Files.createDirectories(root.resolve("spread/s" + (i % 20)));
            Files.write(d.resolve("f" + i), Trees.randomBytes(i % 3000, i));
        }
        Path ro = Files.createDirectories(root.resolve("read-only"));
        Files.write(ro.resolve("inside"), new byte[] {7});
        Files.setAttribute(ro, "unix:mode", 0555);
        Files.setAttribute(root.resolve("a/b"), "unix:mode", 0750);
        Files.setLastModifiedTime(root.resolve("a/b"), FileTime.from(1_000_000_000L, TimeUnit.SECONDS));
        Files.setLastModifiedTime(root.resolve("many"), FileTime.from(1_100_000_000L, TimeUnit.SECONDS));
        return root;
    }

    private static void xattr(Path p, String name, String value) {
        try {
            Files.getFileAttributeView(p, UserDefinedFileAttributeView.class)
                    .write(name.substring("user.".length()), ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException | UnsupportedOperationException e) {
            // the file system has no user xattrs: the comparison still covers the rest
        }
    }

    static void exec(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IOException("failed: " + String.join(" ", command));
        }
    }

    /** A {@code cpx} executable in {@code bin}: this build, run as the tests run it (for GNU parallel and Slurm). */
    static Path launcher(Path bin) throws IOException {
        Files.createDirectories(bin);
        List<String> words = new ArrayList<>();
        for (String w : Cli.javaCommand("cpx")) {
            words.add("'" + w.replace("'", "'\\''") + "'");
        }
        Path cpx = bin.resolve("cpx");
        Files.writeString(cpx, "#!/bin/sh\nexec " + String.join(" ", words) + " \"$@\"\n");
        Files.setAttribute(cpx, "unix:mode", 0755);
        return cpx;
    }

    /** Names in {@code root} that are partial files (a copy's temporary names, a split file's staging names). */
    static List<Path> partials(Path root) throws IOException {
        try (var s = Files.walk(root)) {
            return s.filter(p -> p.getFileName() != null && (p.getFileName().toString().endsWith(".cpx-part")
                    || p.getFileName().toString().endsWith(".cpx-ranges"))).toList();
        }
    }

    /**
     * Big files for a plan that splits them ({@code --split-size=1M}): {@code huge/one} and
     * {@code huge/two} of several MiB, dated, and a hard-linked pair of the same size, which is
     * never split.
     */
    static void huge(Path root) throws IOException {
        Path huge = Files.createDirectories(root.resolve("huge"));
        Files.write(huge.resolve("one"), Trees.randomBytes((12 << 20) + 4321, 77));
        Files.write(huge.resolve("two"), Trees.randomBytes((5 << 20) + 1, 78));
        Files.write(huge.resolve("linked"), Trees.randomBytes(3 << 20, 79));
        Files.createLink(huge.resolve("linked2"), huge.resolve("linked"));
        Files.setAttribute(huge.resolve("two"), "unix:mode", 0640);
        Files.setLastModifiedTime(huge.resolve("one"), FileTime.from(1_200_000_000L, TimeUnit.SECONDS));
        Files.setLastModifiedTime(huge.resolve("two"), FileTime.from(1_300_000_000L, TimeUnit.SECONDS));
    }

    /** The number of chunks in a plan's manifest holding {@code bytes} bytes in one entry (a range of that size). */
    static long rangeChunks(Path plan, long bytes) throws IOException {
        return Files.readAllLines(plan.resolve("manifest")).stream().skip(1).map(l -> l.split(" "))
                .filter(f -> f[1].equals("1") && f[2].equals(Long.toString(bytes))).count();
    }
}
