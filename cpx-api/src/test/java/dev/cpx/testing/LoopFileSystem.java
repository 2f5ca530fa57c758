package dev.cpx.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A file system of its own in a sparse image on a loop device under a test's directory: for what the
 * machines' own file systems (ext4 and tmpfs) cannot show, such as a disk whose writers wait
 * ({@link #freeze()}) or extents shared ({@link ReflinkFileSystem}). It needs root; where the image
 * cannot be mounted, the test skips, saying why. {@link #close()} thaws and unmounts it and removes
 * the image.
 */
public final class LoopFileSystem implements AutoCloseable {

    /** The ext4 images' size; sparse, so they cost what is written. */
    private static final long EXT4_SIZE = 64L << 20;

    private final Path image;
    private final Path root;
    private boolean frozen;

    private LoopFileSystem(Path image, Path root) {
        this.image = image;
        this.root = root;
    }

    /**
     * A new ext4 mounted at {@code dir/name} (image {@code dir/name.img}), with the mount options
     * {@code options} beside {@code loop} (none where empty). {@code mkfs.ext4} (e2fsprogs, essential
     * on Debian) must work; only the mount may be refused (the test then skips).
     */
    public static LoopFileSystem ext4(Path dir, String name, String options) throws IOException {
        return make(dir, name, EXT4_SIZE, List.of("mkfs.ext4", "-q", "-F"), true, options, "ext4");
    }

    /**
     * A new file system made by {@code mkfs} (the image's path appended) in an image of {@code size}
     * bytes, mounted at {@code dir/name}; {@code what} names it in the messages. Where {@code mkfs}
     * fails, the test fails if {@code mkfsMustWork}, else skips.
     */
    static LoopFileSystem make(Path dir, String name, long size, List<String> mkfs, boolean mkfsMustWork, String options,
            String what) throws IOException {
        assumeTrue(Unprivileged.isRoot(), "a loop device needs root");
        Path image = dir.resolve(name + ".img");
        try (RandomAccessFile f = new RandomAccessFile(image.toFile(), "rw")) {
            f.setLength(size);
        }
        Path root = Files.createDirectories(dir.resolve(name));
        List<String> command = new ArrayList<>(mkfs);
        command.set(0, program(command.get(0)));
        command.add(image.toString());
        Done made = run(command);
        Done mounted = made.ok()
                ? run(List.of(program("mount"), "-o", options.isEmpty() ? "loop" : "loop," + options, image.toString(), root.toString()))
                : made;
        if (!mounted.ok()) {
            Files.delete(image);
        }
        if (mkfsMustWork) {
            assertTrue(made.ok(), () -> mkfs.get(0) + " failed: " + made.out());
        }
        assumeTrue(made.ok(), () -> mkfs.get(0) + " failed: " + made.out());
        assumeTrue(mounted.ok(), () -> "cannot mount an " + what + " image on a loop device: " + mounted.out());
        return new LoopFileSystem(image, root);
    }

    /** The mounted file system's root directory. */
    public Path root() {
        return root;
    }

    /** {@code fsfreeze -f}: from now on a write there waits, in state {@code D}, until {@link #thaw()}. */
    public synchronized void freeze() {
        Done done = run(List.of(program("fsfreeze"), "-f", root.toString()));
        if (!done.ok()) {
            throw new IllegalStateException("fsfreeze -f " + root + ": " + done.out());
        }
        frozen = true;
    }

    /** {@code fsfreeze -u}, where it is frozen: the writers waiting go on. */
    public synchronized void thaw() {
        if (frozen) {
            Done done = run(List.of(program("fsfreeze"), "-u", root.toString()));
            if (!done.ok()) {
                throw new IllegalStateException("fsfreeze -u " + root + ": " + done.out());
            }
            frozen = false;
        }
    }

    @Override
    public void close() throws IOException {
        thaw();
        Done unmounted = run(List.of(program("umount"), root.toString()));
        if (!unmounted.ok()) {
            unmounted = run(List.of(program("umount"), "-l", root.toString()));
        }
        Files.deleteIfExists(image);
        if (!unmounted.ok()) {
            throw new IOException("cannot unmount " + root + ": " + unmounted.out());
        }
    }

    /** {@code name} where it is found in the system's program directories (sbin too), else as given. */
    private static String program(String name) {
        for (String d : List.of("/usr/sbin/", "/sbin/", "/usr/bin/", "/bin/")) {
            if (Files.isExecutable(Path.of(d + name))) {
                return d + name;
            }
        }
        return name;
    }

    /** A command's exit status and output (standard output and error together). */
    record Done(int exit, String out) {
        boolean ok() {
            return exit == 0;
        }
    }

    static Done run(List<String> command) {
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
