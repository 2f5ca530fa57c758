package dev.cpx.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A file system whose files can share extents ({@code FICLONE}, reflinks): XFS with
 * {@code reflink=1} in a sparse image on a loop device under a test's directory, so that clones are
 * tested for real rather than only refused (the machines' own file systems are ext4 and tmpfs).
 * It needs root, the kernel's XFS and {@code mkfs.xfs} (Debian package xfsprogs, which {@code .ci/run}
 * installs); where any is missing, the test skips, saying which. {@link #close()} unmounts it and
 * removes the image.
 */
public final class ReflinkFileSystem implements AutoCloseable {

    /** XFS's smallest file system (xfsprogs 6); the image is sparse, so it costs what is written. */
    private static final long SIZE = 320L << 20;

    private final Path image;
    private final Path root;

    private ReflinkFileSystem(Path image, Path root) {
        this.image = image;
        this.root = root;
    }

    /** Mounts a new one under {@code dir} (skips the test where the machine cannot). */
    public static ReflinkFileSystem mount(Path dir) throws IOException {
        assumeTrue(Unprivileged.isRoot(), "a loop device needs root");
        assumeTrue(Files.readString(Path.of("/proc/filesystems")).contains("\txfs\n"), "this kernel has no XFS");
        Path mkfs = List.of(Path.of("/usr/sbin/mkfs.xfs"), Path.of("/sbin/mkfs.xfs")).stream()
                .filter(Files::isExecutable).findFirst().orElse(null);
        assumeTrue(mkfs != null, "mkfs.xfs is not installed (Debian package xfsprogs)");
        Path image = dir.resolve("reflink.img");
        try (RandomAccessFile f = new RandomAccessFile(image.toFile(), "rw")) {
            f.setLength(SIZE);
        }
        Path root = Files.createDirectories(dir.resolve("reflink"));
        Done made = run(List.of(mkfs.toString(), "-q", "-m", "reflink=1", image.toString()));
        Done mounted = made.ok() ? run(List.of("mount", "-o", "loop", image.toString(), root.toString())) : made;
        if (!mounted.ok()) {
            Files.delete(image);
        }
        assumeTrue(made.ok(), () -> "mkfs.xfs failed: " + made.out());
        assumeTrue(mounted.ok(), () -> "cannot mount an XFS image on a loop device: " + mounted.out());
        return new ReflinkFileSystem(image, root);
    }

    /** The mounted file system's root directory. */
    public Path root() {
        return root;
    }

    /**
     * Whether every extent of {@code file} is shared with another file ({@code filefrag -v} says
     * {@code shared}); false for a file without data.
     */
    public static boolean sharesExtents(Path file) {
        Done frag = run(List.of("filefrag", "-v", file.toString()));
        if (!frag.ok()) {
            throw new IllegalStateException("filefrag -v " + file + ": " + frag.out());
        }
        List<String> extents = frag.out().lines().filter(l -> l.matches("\\s*\\d+:.*")).toList();
        return !extents.isEmpty() && extents.stream().allMatch(l -> l.contains("shared"));
    }

    @Override
    public void close() throws IOException {
        Done unmounted = run(List.of("umount", root.toString()));
        if (!unmounted.ok()) {
            unmounted = run(List.of("umount", "-l", root.toString()));
        }
        Files.deleteIfExists(image);
        if (!unmounted.ok()) {
            throw new IOException("cannot unmount " + root + ": " + unmounted.out());
        }
    }

    /** A command's exit status and output (standard output and error together). */
    private record Done(int exit, String out) {
        boolean ok() {
            return exit == 0;
        }
    }

    private static Done run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Done(-1, "timed out: " + command);
            }
            return new Done(p.exitValue(), out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
