package dev.cpx.cli.differential;

import dev.cpx.cli.Cli;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * How the suite starts cpx: the test JVM's class path staged as jar files in one world-readable
 * directory (so the unprivileged user can run it from a checkout anywhere, and so the JVM can map
 * a class data sharing archive, which it refuses for class directories), and that archive, made
 * once by a first copy ({@code -XX:ArchiveClassesAtExit}). It saves about a fifth of each cpx
 * start; where it cannot be made, cpx starts without it. JVM logging is off in the runs
 * ({@code -Xlog:disable}) so a JVM warning about the archive cannot reach the compared stderr.
 * {@code -Dcpx.matrix.cds=false} turns the archive off.
 */
final class Launch {

    private static String classpath;
    private static Path archive;
    private static boolean tried;

    private Launch() {
    }

    /** The command that runs cpx as {@code cp}: the JVM, its flags, the staged class path, the main class. */
    static synchronized List<String> cpx() throws IOException, InterruptedException {
        String cp = classpath();
        List<String> cmd = new ArrayList<>(Cli.javaCommand("cp", cp));
        Path jsa = archive(cp);
        if (jsa != null) {
            cmd.addAll(1, List.of("-XX:SharedArchiveFile=" + jsa, "-Xlog:disable"));
        }
        // A short-lived JVM needs no performance counters file and one compiler thread (measured: 175 -> 128 ms a start with the archive).
        cmd.addAll(1, List.of("-XX:-UsePerfData", "-XX:CICompilerCount=1"));
        return cmd;
    }

    /** Jar files in a directory every user can read: copies of the test JVM's jars, and its class directories jarred. */
    static synchronized String classpath() throws IOException {
        if (classpath != null) {
            return classpath;
        }
        Path dir = Files.createTempDirectory("cpx-differential-classpath");
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            Path p = Path.of(entry);
            Path copy = dir.resolve((n++) + "-" + p.getFileName() + (Files.isDirectory(p) ? ".jar" : ""));
            if (Files.isRegularFile(p)) {
                Files.copy(p, copy, StandardCopyOption.REPLACE_EXISTING);
            } else if (Files.isDirectory(p)) {
                jar(p, copy);
            } else {
                continue;
            }
            Files.setAttribute(copy, "unix:mode", 0644);
            entries.add(copy.toString());
        }
        Files.setAttribute(dir, "unix:mode", 0755);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : s.toList()) {
                    Files.deleteIfExists(p);
                }
                Files.deleteIfExists(dir);
            } catch (IOException e) {
                // Left in the temporary directory.
            }
        }));
        classpath = String.join(File.pathSeparator, entries);
        return classpath;
    }

    private static void jar(Path dir, Path jar) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out);
                Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted().toList()) {
                String name = dir.relativize(p).toString().replace(File.separatorChar, '/');
                if (name.isEmpty() || name.equals("META-INF/MANIFEST.MF")) {
                    continue;
                }
                if (Files.isDirectory(p)) {
                    j.putNextEntry(new JarEntry(name + "/"));
                } else {
                    j.putNextEntry(new JarEntry(name));
                    Files.copy(p, j);
                }
                j.closeEntry();
            }
        }
    }

    /** The class data sharing archive for {@code cp}, made by one copy with each engine; null where the JVM would not make one. */
    private static Path archive(String cp) throws IOException, InterruptedException {
        if (tried) {
            return archive;
        }
        tried = true;
        if (!Boolean.parseBoolean(System.getProperty("cpx.matrix.cds", "true"))) {
            return null;
        }
        Path dir = Path.of(cp.split(File.pathSeparator)[0]).getParent();
        Path jsa = dir.resolve("cp.jsa");
        Path scene = Files.createTempDirectory("cpx-differential-cds");
        try {
            Files.writeString(Files.createDirectories(scene.resolve("src/d")).resolve("f"), "x");
            List<String> cmd = new ArrayList<>(Cli.javaCommand("cp", cp));
            cmd.addAll(1, List.of("-XX:ArchiveClassesAtExit=" + jsa, "-Xlog:disable"));
            cmd.addAll(List.of("-a", "src", "dst"));
            Cli.Result r = Cli.runScript(scene, Map.of(), null, "exec \"$@\"", cmd, 120);
            if (r.exit() != 0 || !Files.isRegularFile(jsa)) {
                return null;
            }
            Files.setAttribute(jsa, "unix:mode", 0644);
            // Check that a run with it prints exactly what one without it does.
            List<String> with = new ArrayList<>(Cli.javaCommand("cp", cp));
            with.addAll(1, List.of("-XX:SharedArchiveFile=" + jsa, "-Xshare:on", "-Xlog:disable"));
            with.add("--version");
            List<String> without = new ArrayList<>(Cli.javaCommand("cp", cp));
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
