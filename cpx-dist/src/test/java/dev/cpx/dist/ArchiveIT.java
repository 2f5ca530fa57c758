package dev.cpx.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the archives hold: the layout the README promises, the same in the tar.gz and the zip. */
class ArchiveIT {

    @TempDir
    Path dir;

    @Test
    void holdsTheLauncherTheJarsThePluginFolderTheManPageAndTheCompletions() throws Exception {
        Path root = Dist.unpackTar(dir);
        assertTrue(Files.isExecutable(root.resolve("bin/cpx")));
        assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("bin/cpx"))));
        assertEquals(new TreeSet<>(java.util.List.of("cpx-api-" + Dist.VERSION + ".jar", "cpx-cli-" + Dist.VERSION + ".jar",
                "cpx-engine-ffm-" + Dist.VERSION + ".jar", "cpx-engine-native-" + Dist.VERSION + ".jar", "cpx-engine-nio-" + Dist.VERSION + ".jar",
                "cpx-picocli-" + Dist.VERSION + ".jar", "cpx.jlink-args", "cpx.jvm-args", "cpx.jvm-opens", "cpx.jvm-aot", "cpx-archive.sh", "native",
                "jline-native-3.24.1.jar", "jline-terminal-3.24.1.jar", "jline-terminal-jna-3.24.1.jar", "jna-5.17.0.jar",
                "progressbar-0.10.1.jar")), names(root.resolve("lib")),
                "lib/ holds cpx, its runtime dependencies (picocli as cpx-picocli, compiled for class data sharing), the JVM "
                        + "flags, install's jlink arguments and JNA's native part only (no build-time generator, no example plugin)");
        assertTrue(Files.notExists(root.resolve("runtime")), "no runtime/ in the archive: install links it from the user's JDK");
        // The module flags apart, for JDK 24 and later only: on JDK 17 they would slow every start.
        assertTrue(Files.readString(root.resolve("lib/cpx.jvm-opens")).contains("--add-opens=java.base/sun.nio.fs=ALL-UNNAMED"));
        assertTrue(Files.readString(root.resolve("lib/cpx.jvm-args")).contains("-XX:+UseSerialGC"));
        assertTrue(!Files.readString(root.resolve("lib/cpx.jvm-args")).contains("--add-opens"), "no module flags in cpx.jvm-args");
        try (var natives = Files.walk(root.resolve("lib/native"))) {
            assertTrue(natives.anyMatch(p -> p.getFileName().toString().equals("libjnidispatch.so")), "JNA's native part in lib/native");
        }
        assertEquals(new TreeSet<>(java.util.List.of("README")), names(root.resolve("plugins")), "plugins/ is there, empty but for its README");
        for (String f : new String[] {"share/man/man1/cpx.1", "share/bash-completion/completions/cpx", "share/zsh/site-functions/_cpx",
            "README.md"}) {
            assertTrue(Files.isRegularFile(root.resolve(f)) && Files.size(root.resolve(f)) > 0, f);
        }
    }

    @Test
    void theZipHoldsTheSameFiles() throws Exception {
        Path root = Dist.unpackTar(dir.resolve("tar"));
        TreeSet<String> inTar = new TreeSet<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(p -> !Files.isDirectory(p)).forEach(p -> inTar.add("cpx-" + Dist.VERSION + "/" + root.relativize(p)));
        }
        TreeSet<String> inZip = new TreeSet<>();
        try (ZipFile zip = new ZipFile(Dist.ZIP.toFile())) {
            zip.stream().filter(e -> !e.isDirectory()).map(ZipEntry::getName).forEach(inZip::add);
        }
        assertEquals(inTar, inZip);
    }

    @Test
    void theUnzippedLauncherIsExecutable() throws Exception {
        Path unzip = Dist.tool("/usr/bin/unzip", "/bin/unzip");
        assumeTrue(unzip != null, "unzip is not installed here");
        Files.createDirectories(dir.resolve("zip"));
        Dist.Result r = Dist.run(dir.resolve("zip"), Map.of(), unzip.toString(), "-q", Dist.ZIP.toString());
        assertEquals(0, r.exit(), r::toString);
        Path root = Dist.root(dir.resolve("zip"));
        assertTrue(Files.isExecutable(root.resolve("bin/cpx")));
        Dist.Result version = Dist.run(dir, Dist.env(), root.resolve("bin/cpx").toString(), "--version");
        assertEquals(0, version.exit(), version::toString);
    }

    private static TreeSet<String> names(Path d) throws Exception {
        try (Stream<Path> list = Files.list(d)) {
            return list.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        }
    }
}
