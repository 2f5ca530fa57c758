package dev.cpx.dist;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code install} links a runtime of its own from the JDK (runtime/), records the installation and
 * its Java in bin/cpx and makes the class data sharing archive: then bin/cpx, copied anywhere (as
 * {@code cp}) and run with an empty environment, still copies, speaks as {@code cp} and prints what a
 * run without the archive prints. Without jlink (or with CPX_INSTALL_RUNTIME=0) it runs on the JDK
 * itself. The checkout's ./cpx does the same after it built.
 */
class InstallIT {

    @TempDir
    Path dir;

    @Test
    void aCopiedLauncherRunsWithAnEmptyEnvironment() throws Exception {
        Path root = Dist.unpackTar(Files.createDirectories(dir.resolve("opt")));
        Dist.Result install = Dist.run(dir, Map.of("JAVA_HOME", Dist.JAVA_HOME.toString()), root.resolve("install").toString());
        assertEquals(0, install.exit(), install::toString);
        assertTrue(install.out().startsWith("cpx installed in " + root.toRealPath()), install::toString);
        String launcher = Files.readString(root.resolve("bin/cpx"));
        assertTrue(launcher.contains("\ncpx_installed_home=" + root.toRealPath() + "\n"), launcher);
        try (var lib = Files.list(root.resolve("lib"))) {
            assertTrue(lib.anyMatch(p -> p.getFileName().toString().matches("cpx-.*\\.(jsa|aot)")), "an archive in lib/");
        }
        try (var lib = Files.list(root.resolve("lib"))) {
            assertTrue(lib.noneMatch(p -> p.getFileName().toString().endsWith(".new")), "nothing left of placing the archive");
        }
        // JDK 17-24: one static archive (magic 0xf00baba2), not a dynamic one on top of the JDK's.
        assertTrue(launcher.contains("\ncpx_installed_archive_kind=aot\n")
                || launcher.contains("\ncpx_installed_archive_kind=static\n"), launcher);
        try (var lib = Files.list(root.resolve("lib"))) {
            for (Path jsa : lib.filter(p -> p.getFileName().toString().endsWith(".jsa")).toList()) {
                byte[] head;
                try (var in = Files.newInputStream(jsa)) {
                    head = in.readNBytes(4);
                }
                assertArrayEquals(new byte[] {(byte) 0xa2, (byte) 0xab, 0x0b, (byte) 0xf0}, head, jsa::toString);
            }
        }

        Path t = Files.createDirectories(dir.resolve("t"));
        Files.copy(root.resolve("bin/cpx"), t.resolve("cp"), StandardCopyOption.COPY_ATTRIBUTES);
        Files.writeString(dir.resolve("a"), "data");
        Dist.Result copy = Dist.run(dir, Map.of(), "/usr/bin/env", "-i", "PATH=" + t, t.resolve("cp").toString(), "a", "b");
        assertEquals(new Dist.Result(0, "", ""), copy);
        assertEquals("data", Files.readString(dir.resolve("b")));

        Dist.Result bad = Dist.run(dir, Map.of(), "/usr/bin/env", "-i", "PATH=" + t, t.resolve("cp").toString(), "--bogus", "a", "b");
        assertEquals(1, bad.exit(), bad::toString);
        assertEquals(List.of("cp: unrecognized option '--bogus'", "Try 'cp --help' for more information."), Dist.lines(bad.err()));

        Dist.Result withArchive = Dist.run(dir, Map.of(), "/usr/bin/env", "-i", "PATH=" + t, t.resolve("cp").toString(), "--version");
        Dist.Result without = Dist.run(dir, Map.of(), "/usr/bin/env", "-i", "PATH=" + t, "CPX_CDS=0", t.resolve("cp").toString(), "--version");
        assertEquals(without, withArchive, "the archive changes nothing that is printed");
        assertEquals(0, withArchive.exit(), withArchive::toString);
    }

    @Test
    void aJdkWithJlinkGivesARuntimeOfItsOwn() throws Exception {
        assumeTrue(jdkCanLink(), "the JDK running the tests cannot jlink (no jlink, or no jmods and not linkable)");
        Path root = Dist.unpackTar(Files.createDirectories(dir.resolve("opt")));
        Dist.Result install = Dist.run(dir, Map.of("JAVA_HOME", Dist.JAVA_HOME.toString()), root.resolve("install").toString());
        assertEquals(0, install.exit(), install::toString);
        assertEquals("", install.err(), install::toString);
        String launcher = Files.readString(root.resolve("bin/cpx"));
        Path runtime = root.toRealPath().resolve("runtime");
        assertTrue(launcher.contains("\ncpx_installed_java=" + runtime.resolve("bin/java") + "\n"), launcher);
        assertTrue(launcher.contains("\ncpx_installed_java_source=" + Dist.JAVA_HOME.toRealPath().resolve("bin/java") + "\n"), launcher);
        assertTrue(Files.isDirectory(runtime.resolve("lib")), "runtime/ linked");
        // Without JAVA_HOME, and with JAVA_HOME naming the JDK it was linked from, the runtime runs.
        assertEquals(runtime.toString(), javaHomeOfARun(root, null));
        assertEquals(runtime.toString(), javaHomeOfARun(root, Dist.JAVA_HOME.toRealPath()));
    }

    /** Whether install can link a runtime from the JDK running the tests: jlink and its jmods, or (JDK 24+) a linkable run-time image. */
    private boolean jdkCanLink() throws Exception {
        Path jlink = Dist.JAVA_HOME.resolve("bin/jlink");
        if (!Files.isExecutable(jlink)) {
            return false;
        }
        if (Files.isDirectory(Dist.JAVA_HOME.resolve("jmods"))) {
            return true;
        }
        return Dist.run(dir, Map.of(), jlink.toString(), "--add-modules", "java.base", "--output", dir.resolve("probe").toString()).exit() == 0;
    }

    /** A copy writes nothing into the user's home: JNA's native part is installed, so JNA neither unpacks nor cleans up there. */
    @Test
    void aCopyLeavesTheUsersHomeAsItWas() throws Exception {
        Path root = Dist.unpackTar(Files.createDirectories(dir.resolve("opt")));
        assertEquals(0, Dist.run(dir, Map.of("JAVA_HOME", Dist.JAVA_HOME.toString()), root.resolve("install").toString()).exit());
        Path home = Files.createDirectories(dir.resolve("home"));
        Files.writeString(dir.resolve("a"), "data");
        Map<String, String> env = new java.util.HashMap<>();
        env.put("HOME", home.toString());
        // JNA's unpacking directory is $XDG_CACHE_HOME/JNA/temp (else in user.home, the passwd entry's).
        env.put("XDG_CACHE_HOME", home.resolve(".cache").toString());
        assertEquals(new Dist.Result(0, "", ""), Dist.run(dir, env, root.resolve("bin/cpx").toString(), "a", "b"));
        assertEquals("data", Files.readString(dir.resolve("b")));
        try (var left = Files.list(home)) {
            assertEquals(List.of(), left.toList());
        }
    }

    /** A file whose name is not UTF-8 copies with the installed cpx: on the linked runtime, where there is one (its modules keep every file name encoding). */
    @Test
    void theLinkedRuntimeCopiesNamesThatAreNotUtf8() throws Exception {
        Path root = Dist.unpackTar(Files.createDirectories(dir.resolve("opt")));
        assertEquals(0, Dist.run(dir, Map.of("JAVA_HOME", Dist.JAVA_HOME.toString()), root.resolve("install").toString()).exit());
        Files.createDirectories(dir.resolve("src"));
        assertEquals(0, Dist.run(dir.resolve("src"), Map.of(), "/bin/sh", "-c", "printf data > \"$(printf 'a\\377b')\"").exit());
        Dist.Result copy = Dist.run(dir, Map.of(), root.resolve("bin/cpx").toString(), "-r", "src", "dst");
        assertEquals(new Dist.Result(0, "", ""), copy);
        Dist.Result same = Dist.run(dir, Map.of(), "/usr/bin/diff", "-r", "src", "dst");
        assertEquals(new Dist.Result(0, "", ""), same);
        Dist.Result names = Dist.run(dir, Map.of(), "/bin/sh", "-c", "ls dst | od -An -c");
        assertTrue(names.out().contains("a 377   b"), names::toString);
    }

    @Test
    void withoutARuntimeOfItsOwnTheJdkRunsCpx() throws Exception {
        Path root = Dist.unpackTar(Files.createDirectories(dir.resolve("opt")));
        Dist.Result install = Dist.run(dir, Map.of("JAVA_HOME", Dist.JAVA_HOME.toString(), "CPX_INSTALL_RUNTIME", "0"),
                root.resolve("install").toString());
        assertEquals(0, install.exit(), install::toString);
        assertTrue(Files.notExists(root.resolve("runtime")), "no runtime/");
        String launcher = Files.readString(root.resolve("bin/cpx"));
        assertTrue(launcher.contains("\ncpx_installed_java=" + Dist.JAVA_HOME.toRealPath().resolve("bin/java") + "\n"), launcher);
        assertTrue(launcher.contains("\ncpx_installed_java_source=''\n"), launcher);
        assertEquals(Dist.JAVA_HOME.toRealPath().toString(), javaHomeOfARun(root, null));
        Files.writeString(dir.resolve("a"), "data");
        assertEquals(new Dist.Result(0, "", ""), Dist.run(dir, Map.of(), root.resolve("bin/cpx").toString(), "a", "b"));
        assertEquals("data", Files.readString(dir.resolve("b")));
    }

    /** The java.home of the JVM that bin/cpx starts, with JAVA_HOME set to {@code javaHome} (null: unset). */
    private String javaHomeOfARun(Path root, Path javaHome) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(Map.of("CPX_JAVA_OPTS", "-XshowSettings:properties"));
        if (javaHome != null) {
            env.put("JAVA_HOME", javaHome.toString());
        }
        Dist.Result r = Dist.run(dir, env, root.resolve("bin/cpx").toString(), "--version");
        assertEquals(0, r.exit(), r::toString);
        return Dist.lines(r.err()).stream().map(String::strip).filter(l -> l.startsWith("java.home = "))
                .map(l -> l.substring("java.home = ".length())).findFirst().orElseThrow(() -> new AssertionError(r));
    }

    /**
     * {@code install --state DIR} (the Debian package's postinst): the archive and the record go to DIR,
     * the installation is left as it was, and a launcher that names DIR/cpx.conf (as the package's does)
     * reads it and runs with the archive.
     */
    @Test
    void withStateTheArchiveAndTheRecordGoThereAndTheInstallationStaysAsItWas() throws Exception {
        Path root = Dist.unpackTar(Files.createDirectories(dir.resolve("opt")));
        String shipped = Files.readString(root.resolve("bin/cpx"));
        Path state = dir.resolve("state");
        Dist.Result install = Dist.run(dir, Map.of("JAVA_HOME", Dist.JAVA_HOME.toString()), root.resolve("install").toString(),
                "--state", state.toString());
        assertEquals(0, install.exit(), install::toString);
        assertEquals(shipped, Files.readString(root.resolve("bin/cpx")), "bin/cpx as shipped");
        assertTrue(Files.notExists(root.resolve("runtime")), "no runtime/");
        try (var lib = Files.list(root.resolve("lib"))) {
            assertTrue(lib.noneMatch(p -> p.getFileName().toString().matches("cpx-.*\\.(jsa|aot)")), "no archive in lib/");
        }
        String conf = Files.readString(state.resolve("cpx.conf"));
        assertTrue(conf.contains("\ncpx_installed_java=" + Dist.JAVA_HOME.toRealPath().resolve("bin/java") + "\n"), conf);
        try (var made = Files.list(state)) {
            assertTrue(made.anyMatch(p -> p.getFileName().toString().matches("cpx-.*\\.(jsa|aot)")), "an archive in " + state);
        }

        Path packaged = root.resolve("bin/cpx-packaged");
        Files.writeString(packaged, shipped.replace("\ncpx_installed_record=\n", "\ncpx_installed_record=" + state.resolve("cpx.conf") + "\n"));
        assertTrue(packaged.toFile().setExecutable(true));
        // (A first run without the record would have no archive: the user cache's is made after it.)
        Map<String, String> env = new java.util.HashMap<>();
        env.put("JAVA_HOME", null);
        env.put("XDG_CACHE_HOME", null);
        env.put("HOME", Files.createDirectories(dir.resolve("home")).toString());
        assertTrue(Dist.mainComesFromAnArchive(dir, env, packaged.toString()), "the recorded archive is used");
    }

    /**
     * A system package's lib/ has no JNA native part (the package is for all architectures): {@code
     * install --state DIR} unpacks the one for this machine into DIR/jna and the record names it, so a
     * copy with the native engine writes nothing into the user's home (JNA would unpack its part there,
     * under ~/.cache/JNA, at every start).
     */
    @Test
    void withoutJnasNativePartInstallUnpacksItOnceIntoTheState() throws Exception {
        Path root = Dist.unpackTar(Files.createDirectories(dir.resolve("opt")));
        assertEquals(0, Dist.run(dir, Map.of(), "rm", "-r", root.resolve("lib/native").toString()).exit());
        String shipped = Files.readString(root.resolve("bin/cpx"));
        Path state = Files.createDirectories(dir.resolve("state")).toRealPath();
        Dist.Result install = Dist.run(dir, Map.of("JAVA_HOME", Dist.JAVA_HOME.toString()), root.resolve("install").toString(),
                "--state", state.toString());
        assertEquals(0, install.exit(), install::toString);
        assertEquals("", install.err(), install::toString);
        assertTrue(Files.isRegularFile(state.resolve("jna/libjnidispatch.so")), "JNA's native part in " + state);
        try (var jna = Files.list(state.resolve("jna"))) {
            assertEquals(List.of(state.resolve("jna/libjnidispatch.so")), jna.toList());
        }
        String conf = Files.readString(state.resolve("cpx.conf"));
        assertTrue(conf.contains("\ncpx_installed_jna=" + state.resolve("jna") + "\n"), conf);

        Path packaged = root.resolve("bin/cpx-packaged");
        Files.writeString(packaged, shipped.replace("\ncpx_installed_record=\n", "\ncpx_installed_record=" + state.resolve("cpx.conf") + "\n"));
        assertTrue(packaged.toFile().setExecutable(true));
        Path home = Files.createDirectories(dir.resolve("home"));
        Files.writeString(dir.resolve("a"), "data");
        Map<String, String> env = new java.util.HashMap<>();
        env.put("JAVA_HOME", null);
        env.put("HOME", home.toString());
        env.put("XDG_CACHE_HOME", home.resolve(".cache").toString());
        assertEquals(new Dist.Result(0, "", ""), Dist.run(dir, env, packaged.toString(), "--engine=native", "a", "b"));
        assertEquals("data", Files.readString(dir.resolve("b")));
        try (var left = Files.list(home)) {
            assertEquals(List.of(), left.toList());
        }
    }

    /**
     * On JDK 25 and later install makes an AOT cache without training data, and the launcher runs with
     * it and with the flags it was made with (lib/cpx.jvm-aot; a cache made with other flags would be
     * refused, and cpx would start without it).
     */
    @Test
    void onJdk25TheAotCacheIsMadeAndUsedWithoutTrainingData() throws Exception {
        Path jdk = ClassDataSharingIT.jdk(25).orElse(null);
        assumeTrue(jdk != null, "no JDK 25 or later on this machine");
        Path root = Dist.unpackTar(Files.createDirectories(dir.resolve("opt")));
        Dist.Result install = Dist.run(dir, Map.of("JAVA_HOME", jdk.toString(), "CPX_INSTALL_RUNTIME", "0"),
                root.resolve("install").toString());
        assertEquals(0, install.exit(), install::toString);
        String launcher = Files.readString(root.resolve("bin/cpx"));
        assertTrue(launcher.contains("\ncpx_installed_archive_kind=aot\n"), launcher);
        try (var lib = Files.list(root.resolve("lib"))) {
            assertTrue(lib.anyMatch(p -> p.getFileName().toString().matches("cpx-.*\\.aot")), "an AOT cache in lib/");
        }
        Map<String, String> env = new java.util.HashMap<>();
        env.put("JAVA_HOME", null);
        assertTrue(Dist.mainComesFromAnArchive(dir, env, root.resolve("bin/cpx").toString()), "the AOT cache is used");
        env.put("CPX_JAVA_OPTS", "-XX:+PrintFlagsFinal");
        Dist.Result flags = Dist.run(dir, env, root.resolve("bin/cpx").toString(), "--version");
        assertEquals(0, flags.exit(), flags::toString);
        assertTrue(flags.out().lines().anyMatch(l -> l.matches("\\s*bool AOTReplayTraining\\s+= false .*")), flags.out());

        Files.writeString(dir.resolve("a"), "data");
        env.remove("CPX_JAVA_OPTS");
        assertEquals(new Dist.Result(0, "", ""), Dist.run(dir, env, root.resolve("bin/cpx").toString(), "a", "b"));
        assertEquals("data", Files.readString(dir.resolve("b")));
    }

    @Test
    void aLauncherCopiedWithoutInstallSaysWhatToDo() throws Exception {
        Path root = Dist.unpackTar(Files.createDirectories(dir.resolve("opt")));
        Path t = Files.createDirectories(dir.resolve("t"));
        Files.copy(root.resolve("bin/cpx"), t.resolve("cp"), StandardCopyOption.COPY_ATTRIBUTES);
        Dist.Result r = Dist.run(dir, Map.of(), "/usr/bin/env", "-i", "PATH=" + t, t.resolve("cp").toString(), "a", "b");
        assertEquals(1, r.exit(), r::toString);
        assertTrue(r.err().startsWith("cp: cannot find the cpx installation from "), r::toString);
    }

    /** The checkout's ./cpx, copied: only where it has been built (its stamp exists), as a build inside a test would be slow. */
    @Test
    void theCheckoutLauncherCopiedRunsWithAnEmptyEnvironment() throws Exception {
        Path checkout = Path.of(System.getProperty("user.dir")).getParent();
        Path stamp = checkout.resolve("cpx-cli/target/cpx-build.sh");
        assumeTrue(Files.isRegularFile(stamp), "the checkout's ./cpx has not built yet (no " + stamp + ")");
        Dist.Result fresh = Dist.run(checkout, Map.of(), checkout.resolve("cpx").toString(), "--version");
        assumeTrue(fresh.exit() == 0 && fresh.err().isEmpty(), "./cpx is not ready: " + fresh);
        Path t = Files.createDirectories(dir.resolve("t"));
        Files.copy(checkout.resolve("cpx"), t.resolve("cp"), StandardCopyOption.COPY_ATTRIBUTES);
        Files.writeString(dir.resolve("a"), "data");
        Dist.Result copy = Dist.run(dir, Map.of(), "/usr/bin/env", "-i", "PATH=" + t, t.resolve("cp").toString(), "a", "b");
        assertEquals(new Dist.Result(0, "", ""), copy);
        assertEquals("data", Files.readString(dir.resolve("b")));
        Dist.Result missing = Dist.run(dir, Map.of(), "/usr/bin/env", "-i", "PATH=" + t, t.resolve("cp").toString(), "nofile", "x");
        assertEquals(List.of("cp: cannot stat 'nofile': No such file or directory"), Dist.lines(missing.err()));
    }
}
