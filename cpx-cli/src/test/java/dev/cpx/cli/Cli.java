package dev.cpx.cli;

import dev.cpx.spi.support.PathBytes;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real {@code cpx} command in its own JVM, the way users run it, and GNU cp beside it.
 * Arguments are strings that may carry surrogate-escaped bytes; they reach the process as the
 * exact bytes (through a small shell wrapper), as a shell would pass them.
 */
public final class Cli {

    /** GNU cp, the reference; tests that compare with it skip clearly where it is missing. */
    public static final Path GNU_CP = Path.of("/usr/bin/cp");

    private Cli() {
    }

    /** What a process did. */
    public record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    static List<String> javaCommand(String programName) {
        return javaCommand(programName, System.getProperty("java.class.path"));
    }

    public static List<String> javaCommand(String programName, String classpath) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.add("--add-opens=java.base/sun.nio.fs=ALL-UNNAMED");
        cmd.add("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED");
        cmd.add("--add-opens=java.base/java.io=ALL-UNNAMED");
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-Djna.platform.library.path=");
        cmd.add("-Dcpx.program=" + programName);
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(Main.class.getName());
        return cmd;
    }

    /** Runs {@code cpx args...} in {@code dir}. */
    static Result cpx(Path dir, String... args) throws IOException, InterruptedException {
        return cpxAs("cpx", dir, Map.of(), args);
    }

    /** Runs cpx with the given program name and extra environment. */
    static Result cpxAs(String programName, Path dir, Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = javaCommand(programName);
        return run(dir, env, cmd, args);
    }

    /** Runs GNU cp in {@code dir}. */
    static Result gnu(Path dir, String... args) throws IOException, InterruptedException {
        return run(dir, Map.of(), List.of(GNU_CP.toString()), args);
    }

    /**
     * Runs {@code prefix + args}. Arguments go through a shell script written with each argument's
     * bytes in octal escapes, so names that are not valid UTF-8 arrive intact.
     */
    static Result run(Path dir, Map<String, String> env, List<String> prefix, String... args)
            throws IOException, InterruptedException {
        return runWithInput(dir, env, prefix, null, args);
    }

    /** Runs {@code prefix + args} with {@code stdin} (null: /dev/null) as standard input. */
    static Result runWithInput(Path dir, Map<String, String> env, List<String> prefix, String stdin, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(args));
        return runScript(dir, env, stdin, "exec \"$@\"", command);
    }

    /**
     * Runs a bash script in {@code dir}: its positional parameters are {@code command} (each word's
     * exact bytes), then {@code body} runs, which uses {@code "$@"} for the command — {@code exec "$@"}
     * for a plain run, {@code umask 077; exec "$@"} or {@code "$@" | cat} for others.
     */
    public static Result runScript(Path dir, Map<String, String> env, String stdin, String body, List<String> command)
            throws IOException, InterruptedException {
        Path script = Files.createTempFile("cpx-run", ".sh");
        script.toFile().setReadable(true, false);
        try {
            StringBuilder sb = new StringBuilder("set --");
            for (String a : command) {
                sb.append(' ').append(shellBytes(PathBytes.encode(a)));
            }
            sb.append('\n').append(body).append('\n');
            Files.writeString(script, sb.toString(), StandardCharsets.UTF_8);
            ProcessBuilder pb = new ProcessBuilder("/bin/bash", script.toString()).directory(dir.toFile());
            pb.environment().putAll(env);
            Path out = Files.createTempFile("cpx-out", ".txt");
            Path err = Files.createTempFile("cpx-err", ".txt");
            Path in = null;
            if (stdin != null) {
                in = Files.createTempFile("cpx-in", ".txt");
                Files.writeString(in, stdin);
            }
            pb.redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(in != null ? in.toFile() : new File("/dev/null")));
            Process p = pb.start();
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new IOException("timed out: " + String.join(" ", command));
            }
            Result r = new Result(p.exitValue(), read(out), read(err));
            Files.delete(out);
            Files.delete(err);
            if (in != null) {
                Files.delete(in);
            }
            return r;
        } finally {
            Files.deleteIfExists(script);
        }
    }

    private static String read(Path p) throws IOException {
        return PathBytes.decode(Files.readAllBytes(p));
    }

    /** {@code $'\ooo...'}: a bash word with exactly these bytes. */
    static String shellBytes(byte[] bytes) {
        StringBuilder sb = new StringBuilder("$'");
        for (byte b : bytes) {
            sb.append('\\').append(String.format("%03o", b & 0xFF));
        }
        return sb.append('\'').toString();
    }
}
