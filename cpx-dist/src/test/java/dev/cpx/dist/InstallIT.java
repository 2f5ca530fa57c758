package dev.cpx.dist;

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
 * {@code install} records the installation and its Java in bin/cpx and makes the class data sharing
 * archive: then bin/cpx, copied anywhere (as {@code cp}) and run with an empty environment, still
 * copies, speaks as {@code cp} and prints what a run without the archive prints. The checkout's
 * ./cpx does the same after it built.
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
