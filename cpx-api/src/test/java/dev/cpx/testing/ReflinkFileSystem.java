package dev.cpx.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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

    private final LoopFileSystem xfs;

    private ReflinkFileSystem(LoopFileSystem xfs) {
        this.xfs = xfs;
    }

    /** Mounts a new one under {@code dir} (skips the test where the machine cannot). */
    public static ReflinkFileSystem mount(Path dir) throws IOException {
        assumeTrue(Unprivileged.isRoot(), "a loop device needs root");
        assumeTrue(Files.readString(Path.of("/proc/filesystems")).contains("\txfs\n"), "this kernel has no XFS");
        assumeTrue(List.of(Path.of("/usr/sbin/mkfs.xfs"), Path.of("/sbin/mkfs.xfs")).stream().anyMatch(Files::isExecutable),
                "mkfs.xfs is not installed (Debian package xfsprogs)");
        return new ReflinkFileSystem(LoopFileSystem.make(dir, "reflink", SIZE, List.of("mkfs.xfs", "-q", "-m", "reflink=1"), false,
                "", "XFS"));
    }

    /** The mounted file system's root directory. */
    public Path root() {
        return xfs.root();
    }

    /**
     * Whether every extent of {@code file} is shared with another file ({@code filefrag -v} says
     * {@code shared}); false for a file without data.
     */
    public static boolean sharesExtents(Path file) {
        LoopFileSystem.Done frag = LoopFileSystem.run(List.of("filefrag", "-v", file.toString()));
        if (!frag.ok()) {
            throw new IllegalStateException("filefrag -v " + file + ": " + frag.out());
        }
        List<String> extents = frag.out().lines().filter(l -> l.matches("\\s*\\d+:.*")).toList();
        return !extents.isEmpty() && extents.stream().allMatch(l -> l.contains("shared"));
    }

    @Override
    public void close() throws IOException {
        xfs.close();
    }
}
