package dev.cpx.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The built archives, unpacked as a user would, and processes run from them. */
final class Dist {

    static final String VERSION = property("cpx.dist.version");
    static final Path TAR = Path.of(property("cpx.dist.tar"));
    static final Path ZIP = Path.of(property("cpx.dist.zip"));
    static final Path EXAMPLE_PLUGIN = Path.of(property("cpx.example.plugin"));
    /** The JDK running the tests, which the launcher is given through JAVA_HOME. */
    static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));

    private Dist() {
    }

    private static String property(String name) {
        String v = System.getProperty(name);
        if (v == null || v.isEmpty()) {
            throw new IllegalStateException("system property " + name + " is not set (run through Maven: failsafe sets it)");
        }
        return v;
    }

    /** Unpacks the tar.gz into {@code dir} with tar, and returns the distribution's root. */
    static Path unpackTar(Path dir) throws Exception {
        Files.createDirectories(dir);
        Result r = run(dir, Map.of(), "tar", "xzf", TAR.toString());
        assertEquals(0, r.exit(), r::toString);
        return root(dir);
    }

    static Path root(Path dir) {
        Path root = dir.resolve("cpx-" + VERSION);
        assertTrue(Files.isDirectory(root), "the archive unpacks into cpx-" + VERSION + "/");
        return root;
    }

    /** What a process did. */
    record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /**
     * An environment with the test's JDK as JAVA_HOME, no cpx settings from outside, and no class data
     * sharing archive (which would go to the user's cache; ClassDataSharingIT tests it in its own).
     */
    static Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("JAVA_HOME", JAVA_HOME.toString());
        env.put("CPX_CDS", "0");
        return env;
    }

    /**
     * Runs {@code command} in {@code dir} with the environment of the test minus JAVA_HOME and CPX_*,
     * plus {@code env} (a null value removes a variable).
     */
    static Result run(Path dir, Map<String, String> env, String... command) throws IOException, InterruptedException {
        return run(dir, env, 120, command);
    }

    /** {@link #run(Path, Map, String...)}, waiting up to {@code timeoutSeconds} (apt waits for its lock). */
    static Result run(Path dir, Map<String, String> env, long timeoutSeconds, String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(List.of(command)).directory(dir.toFile());
        pb.environment().keySet().removeIf(k -> k.equals("JAVA_HOME") || k.startsWith("CPX_"));
        env.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        Path out = Files.createTempFile("dist-out", ".txt");
        Path err = Files.createTempFile("dist-err", ".txt");
        try {
            pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out: " + String.join(" ", command));
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /**
     * Whether {@code launcher --version}, run in {@code dir} with {@code env}, loads cpx's main class from a
     * class data sharing archive (the JDK's own archive has none of cpx's classes), as the JVM's class
     * loading log says.
     */
    static boolean mainComesFromAnArchive(Path dir, Map<String, String> env, String launcher) throws Exception {
        Path log = Files.createTempFile(dir, "class-load", ".log");
        try {
            Map<String, String> withLog = new HashMap<>(env);
            withLog.put("CPX_JAVA_OPTS", "-Xlog:class+load=info:file=" + log);
            Result r = run(dir, withLog, launcher, "--version");
            assertEquals(0, r.exit(), r::toString);
            String main = lines(Files.readString(log)).stream().filter(l -> l.contains(" dev.cpx.cli.Main ")).findFirst()
                    .orElseThrow(() -> new AssertionError("dev.cpx.cli.Main not in the class loading log"));
            return main.contains("source: shared objects file");
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** The first of {@code candidates} that is an executable file, or null. */
    static Path tool(String... candidates) {
        for (String c : candidates) {
            Path p = Path.of(c);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    static List<String> lines(String text) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }
}
