package dev.cpx.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A FUSE file system for a test, a pass-through over a directory, of one of two kinds:
 * <ul>
 * <li>{@link #mount} ({@code fuse_passthrough.py}, with Debian's python3-fusepy, which .ci/run
 * installs): without {@code RENAME_NOREPLACE} (as NFS, CIFS and many FUSE file systems) and without
 * unnamed files ({@code O_TMPFILE});</li>
 * <li>{@link #mountWithUnnamedFiles} ({@code fuse_tmpfile.py}, the kernel's protocol spoken by the
 * script itself, as libfuse 2 has no {@code FUSE_TMPFILE}): with both, as a local file system, and
 * saying each unnamed file it names ({@link #namedUnnamed()}).</li>
 * </ul>
 * On each, the close of a file named with "close-fails" reports {@code ENOSPC} (as NFS reports a
 * write error at close). Mounted by root; where the machine cannot (no /dev/fuse, no fusepy, not
 * root), the test skips, saying which. {@link #close()} unmounts it.
 */
final class FuseFileSystem implements AutoCloseable {

    private final Process process;
    private final Path mount;
    private final Path log;

    private FuseFileSystem(Process process, Path mount, Path log) {
        this.process = process;
        this.mount = mount;
        this.log = log;
    }

    /** Mounts a new pass-through without unnamed files at {@code dir}/mnt over {@code dir}/backing. */
    static FuseFileSystem mount(Path dir) throws IOException, InterruptedException {
        assumeTrue(Files.exists(Path.of("/dev/fuse")), "no /dev/fuse here");
        assumeTrue(dev.cpx.testing.Unprivileged.isRoot(), "mounting a FUSE file system needs root here");
        Process probe = new ProcessBuilder("/usr/bin/python3", "-c", "import fusepy").redirectErrorStream(true).start();
        assumeTrue(probe.waitFor() == 0, "python3-fusepy is not installed (Debian package python3-fusepy)");
        return start(dir, "fuse_passthrough.py");
    }

    /**
     * Mounts a new pass-through with unnamed files at {@code dir}/mnt over {@code dir}/backing; skips
     * where the kernel does not make them on FUSE (before Linux 6.3).
     */
    static FuseFileSystem mountWithUnnamedFiles(Path dir) throws IOException, InterruptedException {
        assumeTrue(Files.exists(Path.of("/dev/fuse")), "no /dev/fuse here");
        assumeTrue(dev.cpx.testing.Unprivileged.isRoot(), "mounting a FUSE file system needs root here");
        FuseFileSystem fs = start(dir, "fuse_tmpfile.py");
        Process probe = new ProcessBuilder("/usr/bin/python3", "-c",
                "import os, sys; os.close(os.open(sys.argv[1], os.O_TMPFILE | os.O_WRONLY, 0o600))", fs.root().toString())
                .redirectErrorStream(true).start();
        boolean made = probe.waitFor() == 0;
        if (!made) {
            fs.close();
        }
        assumeTrue(made, "this kernel makes no unnamed files (O_TMPFILE) on FUSE: "
                + new String(probe.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        return fs;
    }

    private static FuseFileSystem start(Path dir, String name) throws IOException, InterruptedException {
        Path script = dir.resolve(name);
        try (InputStream in = FuseFileSystem.class.getResourceAsStream(name)) {
            Files.copy(in, script);
        }
        Path backing = Files.createDirectories(dir.resolve("backing"));
        Path mount = Files.createDirectories(dir.resolve("mnt"));
        Path log = dir.resolve("fuse.log");
        Process p = new ProcessBuilder("/usr/bin/python3", script.toString(), backing.toString(), mount.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        FuseFileSystem fs = new FuseFileSystem(p, mount, log);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!fs.mounted()) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new IOException("the FUSE file system did not mount: " + Files.readString(log));
            }
            Thread.sleep(20);
        }
        return fs;
    }

    /** Where it is mounted. */
    Path root() {
        return mount;
    }

    /**
     * The names given so far to unnamed files here (said by {@code fuse_tmpfile.py}): files made with
     * {@code O_TMPFILE} and linked, in that order.
     */
    List<String> namedUnnamed() throws IOException {
        String said = "named an unnamed file: ";
        return Files.readAllLines(log).stream().filter(l -> l.startsWith(said)).map(l -> l.substring(said.length())).toList();
    }

    private boolean mounted() throws IOException {
        String target = " " + mount + " ";
        return Files.readAllLines(Path.of("/proc/self/mountinfo")).stream().anyMatch(l -> l.contains(target) && l.contains(" - fuse"));
    }

    @Override
    public void close() throws IOException, InterruptedException {
        new ProcessBuilder("umount", mount.toString()).inheritIO().start().waitFor();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
