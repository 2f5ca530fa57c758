package dev.cpx.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A FUSE file system for a test ({@code fuse_passthrough.py}, with Debian's python3-fusepy, which
 * .ci/run installs): a pass-through over a directory, without {@code RENAME_NOREPLACE} (as NFS,
 * CIFS and many FUSE file systems) and whose close of a file named with "close-fails" reports
 * {@code ENOSPC} (as NFS reports a write error at close). Mounted by root; where the machine
 * cannot (no /dev/fuse, no fusepy, not root), the test skips, saying which. {@link #close()}
 * unmounts it.
 */
final class FuseFileSystem implements AutoCloseable {

    private final Process process;
    private final Path mount;

    private FuseFileSystem(Process process, Path mount) {
        this.process = process;
        this.mount = mount;
    }

    /** Mounts a new one at {@code dir}/mnt over {@code dir}/backing. */
    static FuseFileSystem mount(Path dir) throws IOException, InterruptedException {
        assumeTrue(Files.exists(Path.of("/dev/fuse")), "no /dev/fuse here");
        assumeTrue(dev.cpx.testing.Unprivileged.isRoot(), "mounting a FUSE file system needs root here");
        Process probe = new ProcessBuilder("/usr/bin/python3", "-c", "import fusepy").redirectErrorStream(true).start();
        assumeTrue(probe.waitFor() == 0, "python3-fusepy is not installed (Debian package python3-fusepy)");
        Path script = dir.resolve("fuse_passthrough.py");
        try (InputStream in = FuseFileSystem.class.getResourceAsStream("fuse_passthrough.py")) {
            Files.copy(in, script);
        }
        Path backing = Files.createDirectories(dir.resolve("backing"));
        Path mount = Files.createDirectories(dir.resolve("mnt"));
        Process p = new ProcessBuilder("/usr/bin/python3", script.toString(), backing.toString(), mount.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("fuse.log").toFile()).start();
        FuseFileSystem fs = new FuseFileSystem(p, mount);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!fs.mounted()) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new IOException("the FUSE file system did not mount: " + Files.readString(dir.resolve("fuse.log")));
            }
            Thread.sleep(20);
        }
        return fs;
    }

    /** Where it is mounted. */
    Path root() {
        return mount;
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
