package dev.cpx.cli.differential;

import dev.cpx.cli.Cli;
import dev.cpx.testing.Unprivileged;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the suite starts cpx: from what {@link Unprivileged} staged where every user can read it
 * ({@link Cli#stagedJavaCommand}: the test JVM's class path as jar files and the JVM flags files, so
 * the unprivileged user can run it from a checkout anywhere, and so the JVM can map a class data
 * sharing archive, which it refuses for class directories), and that archive, made
 * once by a first copy ({@code -XX:ArchiveClassesAtExit}). It saves about a fifth of each cpx
 * start; where it cannot be made, cpx starts without it. JVM logging is off in the runs
 * ({@code -Xlog:disable}) so a JVM warning about the archive cannot reach the compared stderr.
 * {@code -Dcpx.matrix.cds=false} turns the archive off.
 */
final class Launch {

    private static Path archive;
    private static boolean tried;

    private Launch() {
    }

    /** The command that runs cpx as {@code cp}: the JVM, its flags, the staged class path, the main class. */
    static synchronized List<String> cpx() throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(Cli.stagedJavaCommand("cp"));
        Path jsa = archive();
        if (jsa != null) {
            cmd.addAll(1, List.of("-XX:SharedArchiveFile=" + jsa, "-Xlog:disable"));
        }
        // A short-lived JVM needs no performance counters file and one compiler thread (measured: 175 -> 128 ms a start with the archive).
        cmd.addAll(1, List.of("-XX:-UsePerfData", "-XX:CICompilerCount=1"));
        return cmd;
    }

    /** The class data sharing archive for {@code cp}, made by one copy with each engine; null where the JVM would not make one. */
    private static Path archive() throws IOException, InterruptedException {
        if (tried) {
            return archive;
        }
        tried = true;
        if (!Boolean.parseBoolean(System.getProperty("cpx.matrix.cds", "true"))) {
            return null;
        }
        Path jsa = Unprivileged.stagingDirectory().resolve("cp.jsa");
        Path scene = Files.createTempDirectory("cpx-differential-cds");
        try {
            Files.writeString(Files.createDirectories(scene.resolve("src/d")).resolve("f"), "x");
            List<String> cmd = new ArrayList<>(Cli.stagedJavaCommand("cp"));
            cmd.addAll(1, List.of("-XX:ArchiveClassesAtExit=" + jsa, "-Xlog:disable"));
            cmd.addAll(List.of("-a", "src", "dst"));
            Cli.Result r = Cli.runScript(scene, Map.of(), null, "exec \"$@\"", cmd, 120);
            if (r.exit() != 0 || !Files.isRegularFile(jsa)) {
                return null;
            }
            Files.setAttribute(jsa, "unix:mode", 0644);
            // Check that a run with it prints exactly what one without it does.
            List<String> with = new ArrayList<>(Cli.stagedJavaCommand("cp"));
            with.addAll(1, List.of("-XX:SharedArchiveFile=" + jsa, "-Xshare:on", "-Xlog:disable"));
            with.add("--version");
            List<String> without = new ArrayList<>(Cli.stagedJavaCommand("cp"));
            without.add("--version");
            Cli.Result a = Cli.runScript(scene, Map.of(), null, "exec \"$@\"", with, 120);
            Cli.Result b = Cli.runScript(scene, Map.of(), null, "exec \"$@\"", without, 120);
            if (a.exit() == 0 && a.equals(b)) {
                archive = jsa;
            }
            return archive;
        } finally {
            Cli.runScript(Path.of("/"), Map.of(), null, "exec \"$@\"", List.of("rm", "-rf", scene.toString()), 60);
        }
    }
}
