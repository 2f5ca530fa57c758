package dev.cpx.dist;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's class data sharing archive: made in the user's cache (by the JVM on JDK 19+, by a
 * background job on JDK 17 and 18), invisible in the output, re-made when damaged, never a reason
 * to fail. Runs on the JDKs found on this machine, whatever JDK runs the tests.
 */
class ClassDataSharingIT {

    /** The dynamic archive's magic number, little-endian: 0xf00baba8. */
    private static final byte[] MAGIC = {(byte) 0xa8, (byte) 0xab, 0x0b, (byte) 0xf0};

    @TempDir
    Path dir;

    Path cpx;
    Path cache;

    @BeforeEach
    void unpack() throws Exception {
        cpx = Dist.unpackTar(Files.createDirectories(dir.resolve("opt"))).resolve("bin/cpx");
        cache = dir.resolve("cache");
    }

    /** {@code cpx --version} on {@code javaHome} with class data sharing off: what every run must print. */
    private Dist.Result versionWithoutArchive(Path javaHome) throws Exception {
        return Dist.run(dir, Map.of("JAVA_HOME", javaHome.toString(), "CPX_CDS", "0"), cpx.toString(), "--version");
    }

    private Map<String, String> env(Path javaHome) {
        Map<String, String> env = new HashMap<>();
        env.put("JAVA_HOME", javaHome.toString());
        env.put("XDG_CACHE_HOME", cache.toString());
        return env;
    }

    /**
     * The training tree (install's, the checkout launcher's and the fallback archive's) is made with
     * the system's cp, never the {@code cp} of the PATH: where that is cpx itself (linked as cp), the
     * checkout's launcher, its sources changed, ran its build again from inside the build, without end.
     */
    @Test
    void theTrainingTreeIsCopiedWithTheSystemsCpNotTheCpOfThePath() throws Exception {
        Path lib = cpx.getParent().getParent().resolve("lib");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path called = dir.resolve("path-cp-called");
        Files.writeString(bin.resolve("cp"), "#!/bin/sh\ntouch '" + called + "'\nexit 1\n");
        assertTrue(bin.resolve("cp").toFile().setExecutable(true));
        Dist.Result r = Dist.run(dir, Map.of("PATH", bin + ":/usr/bin:/bin"), "bash", "-c",
                ". \"$1/cpx-archive.sh\" && cpx_training_tree \"$2\" \"$1\"", "bash", lib.toString(), dir.resolve("train").toString());
        assertEquals(0, r.exit(), r::toString);
        assertTrue(Files.notExists(called), "the cp of the PATH was run");
        assertTrue(Files.isRegularFile(dir.resolve("train/lib/cpx-archive.sh")), "lib/ copied");
        assertTrue(Files.isDirectory(dir.resolve("train/lib/native")), "with its folders");
        assertTrue(Files.isRegularFile(dir.resolve("train/d/large")) && Files.size(dir.resolve("train/d/large")) == (16 << 20) + 1);
    }

    @Test
    void anArchiveIsMadeOnTheFirstRunAndNothingOfItIsSeen() throws Exception {
        Path jdk = jdk(19).orElse(null);
        assumeTrue(jdk != null, "no JDK 19 or later on this machine (class data sharing is used from 19 on)");
        Dist.Result plain = versionWithoutArchive(jdk);
        assertEquals(0, plain.exit(), plain::toString);

        Dist.Result first = Dist.run(dir, env(jdk), cpx.toString(), "--version");
        assertEquals(plain, first, "the run that makes the archive prints exactly what a run without one does");
        Path archive = archive();
        assertArrayEquals(MAGIC, head(archive));

        Dist.Result second = Dist.run(dir, env(jdk), cpx.toString(), "--version");
        assertEquals(plain, second, "the run that uses the archive prints the same");

        Dist.Result missing = Dist.run(dir, env(jdk), cpx.toString(), "no-such-file", "x");
        assertEquals(1, missing.exit(), missing::toString);
        assertEquals(List.of("cpx: cannot stat 'no-such-file': No such file or directory"), Dist.lines(missing.err()));
    }

    @Test
    void aDamagedArchiveIsMadeAgainSilently() throws Exception {
        Path jdk = jdk(19).orElse(null);
        assumeTrue(jdk != null, "no JDK 19 or later on this machine (class data sharing is used from 19 on)");
        Dist.Result plain = versionWithoutArchive(jdk);
        Dist.run(dir, env(jdk), cpx.toString(), "--version");
        Path archive = archive();

        Files.write(archive, new byte[100_000]); // not an archive at all
        assertEquals(plain, Dist.run(dir, env(jdk), cpx.toString(), "--version"));
        assertArrayEquals(MAGIC, head(archive), "made again");

        byte[] whole = Files.readAllBytes(archive);
        // The JVM makes archives read-only: only root writes one without making it writable first.
        assertTrue(archive.toFile().setWritable(true, true), "archive made writable");
        Files.write(archive, java.util.Arrays.copyOf(whole, whole.length / 3)); // cut short
        assertEquals(plain, Dist.run(dir, env(jdk), cpx.toString(), "--version"));
        assertEquals(plain, Dist.run(dir, env(jdk), cpx.toString(), "--version"));
    }

    @Test
    void aCacheThatCannotBeWrittenIsNoProblem() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "not a directory");
        for (Path jdk : Stream.of(Optional.of(Dist.JAVA_HOME), jdk(19)).flatMap(Optional::stream).toList()) {
            Map<String, String> env = env(jdk);
            env.put("XDG_CACHE_HOME", file.resolve("cache").toString());
            Dist.Result r = Dist.run(dir, env, cpx.toString(), "--version");
            assertEquals(0, r.exit(), r::toString);
            assertEquals("", r.err());
            assertTrue(r.out().startsWith("cpx " + Dist.VERSION + "\n"), r::toString);
        }
    }

    @Test
    void onJdk17TheArchiveIsMadeInTheBackgroundAndUsedOnceWhole() throws Exception {
        Path jdk = jdk17or18().orElse(null);
        assumeTrue(jdk != null, "no JDK 17 or 18 on this machine");
        Dist.Result plain = versionWithoutArchive(jdk);
        assertEquals(0, plain.exit(), plain::toString);

        Dist.Result first = Dist.run(dir, env(jdk), cpx.toString(), "--version");
        assertEquals(plain, first, "the run that starts making the archive prints exactly what a run without one does");
        Path archive = madeInTheBackground();
        assertArrayEquals(MAGIC, head(archive));
        assertEquals(Files.size(archive) + "", Files.readString(sizeOf(archive)).strip(), "its size is written next to it");

        assertEquals(plain, Dist.run(dir, env(jdk), cpx.toString(), "--version"), "the run that uses it prints the same");
        Files.createDirectories(dir.resolve("src/d"));
        Files.writeString(dir.resolve("src/d/f"), "data");
        Dist.Result copy = Dist.run(dir, env(jdk), cpx.toString(), "-r", "src", "dst");
        assertEquals(0, copy.exit(), copy::toString);
        assertEquals("data", Files.readString(dir.resolve("dst/d/f")));
    }

    @Test
    void onJdk17AnArchiveCutShortIsNeverUsed() throws Exception {
        Path jdk = jdk17or18().orElse(null);
        assumeTrue(jdk != null, "no JDK 17 or 18 on this machine");
        Dist.Result plain = versionWithoutArchive(jdk);
        Dist.run(dir, env(jdk), cpx.toString(), "--version");
        Path archive = madeInTheBackground();

        // The JDK 17 JVM aborts on such a file: the launcher must not hand it over.
        byte[] whole = Files.readAllBytes(archive);
        // The JVM makes archives read-only: only root writes one without making it writable first.
        assertTrue(archive.toFile().setWritable(true, true), "archive made writable");
        Files.write(archive, java.util.Arrays.copyOf(whole, whole.length / 3));
        assertArrayEquals(MAGIC, head(archive), "still looks like an archive");
        assertEquals(plain, Dist.run(dir, env(jdk), cpx.toString(), "--version"));
        Path again = madeInTheBackground();
        assertEquals(Files.size(again) + "", Files.readString(sizeOf(again)).strip(), "made again, whole");
        assertTrue(Files.size(again) > whole.length / 3);
        assertEquals(plain, Dist.run(dir, env(jdk), cpx.toString(), "--version"));
    }

    /** Waits for the background job to finish, and returns the archive it made. */
    private Path madeInTheBackground() throws Exception {
        Path dirOfArchives = cache.resolve("cpx");
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            try (Stream<Path> list = Files.list(dirOfArchives)) {
                List<String> names = list.map(p -> p.getFileName().toString()).toList();
                boolean working = names.stream().anyMatch(n -> n.endsWith(".lock"));
                boolean done = names.stream().anyMatch(n -> n.endsWith(".jsa"));
                if (done && !working) {
                    return archive();
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no archive made within 120 s in " + dirOfArchives);
    }

    private static Path sizeOf(Path archive) {
        return archive.resolveSibling(archive.getFileName() + ".size");
    }

    /** A JDK 17 or 18: the test's, or one under /usr/lib/jvm. */
    private static Optional<Path> jdk17or18() throws IOException {
        return jdkWhere(f -> f == 17 || f == 18);
    }

    private Path archive() throws IOException {
        try (Stream<Path> list = Files.list(cache.resolve("cpx"))) {
            List<Path> files = list.filter(p -> p.getFileName().toString().endsWith(".jsa")).toList();
            assertEquals(1, files.size(), files::toString);
            assertTrue(files.get(0).getFileName().toString().matches("classes-\\d+-\\d+\\.jsa"), files::toString);
            return files.get(0);
        }
    }

    private static byte[] head(Path file) throws IOException {
        return java.util.Arrays.copyOf(Files.readAllBytes(file), 4);
    }

    /** The test's JDK if it is at least {@code feature}, else one under /usr/lib/jvm. */
    static Optional<Path> jdk(int feature) throws IOException {
        return jdkWhere(f -> f >= feature);
    }

    /** The test's JDK if its feature release passes {@code wanted}, else the first such one under /usr/lib/jvm. */
    private static Optional<Path> jdkWhere(java.util.function.IntPredicate wanted) throws IOException {
        if (wanted.test(Runtime.version().feature())) {
            return Optional.of(Dist.JAVA_HOME);
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> list = Files.list(jvms)) {
            return list.filter(home -> Files.isExecutable(home.resolve("bin/java")))
                    .filter(home -> wanted.test(releaseFeature(home)))
                    .sorted()
                    .findFirst();
        }
    }

    private static int releaseFeature(Path home) {
        try {
            for (String line : Files.readAllLines(home.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    return Integer.parseInt(v.split("[.+-]")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not a JDK we can use
        }
        return 0;
    }
}
