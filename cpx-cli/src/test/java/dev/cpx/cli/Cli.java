package dev.cpx.cli;

import dev.cpx.spi.support.PathBytes;
import dev.cpx.testing.Unprivileged;
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

    /** The command that runs cpx from the build: this JVM, the build's JVM flags files, {@code classpath}. */
    public static List<String> javaCommand(String programName, String classpath) {
        return javaCommand(Unprivileged.java(), jvmFlagFiles(), classpath, programName);
    }

    /**
     * The command that runs cpx from what {@link Unprivileged} staged in one directory every user can
     * read, under an ASCII path (this JVM's class path as jars, the JVM flags files): for runs as the
     * unprivileged account (after {@link Unprivileged#prefix}), which may not reach the checkout (a
     * clone under a 0700 directory), for runs that need a class path of jars, and for runs in a
     * locale that cannot decode the checkout's path (a clone in {@code cöpx}, run with LC_ALL=C).
     */
    public static List<String> stagedJavaCommand(String programName) throws IOException {
        String classpath = Unprivileged.stagedClasspath();
        List<Path> flags = new ArrayList<>();
        for (Path f : jvmFlagFiles()) {
            flags.add(Unprivileged.staged(f));
        }
        return javaCommand(Unprivileged.java(), flags, classpath, programName);
    }

    /**
     * The launchers' JVM flags: the @argfiles the build writes (cpx-cli/target/cpx.jvm-args, and on
     * JDK 24 and later cpx.jvm-opens), as bin/cpx gives them.
     */
    private static List<Path> jvmFlagFiles() {
        Path args = Path.of(System.getProperty("cpx.jvm.args", "target/cpx.jvm-args")).toAbsolutePath();
        return Runtime.version().feature() >= 24 ? List.of(args, args.resolveSibling("cpx.jvm-opens")) : List.of(args);
    }

    private static List<String> javaCommand(String java, List<Path> flagFiles, String classpath, String programName) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        for (Path f : flagFiles) {
            cmd.add("@" + f);
        }
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
        Result r = runScript(dir, env, stdin, body, command, 300);
        if (r.exit() == TIMED_OUT) {
            throw new IOException("timed out: " + String.join(" ", command));
        }
        return r;
    }

    /** The exit status {@link #runScript(Path, Map, String, String, List, int)} gives a script it stopped: timeout(1)'s. */
    public static final int TIMED_OUT = 124;

    /**
     * As {@link #runScript(Path, Map, String, String, List)}, but a script still running after
     * {@code seconds} is killed with everything it started, and its result is exit status
     * {@link #TIMED_OUT} with what it had printed and a last line of stderr saying so.
     */
    public static Result runScript(Path dir, Map<String, String> env, String stdin, String body, List<String> command, int seconds)
            throws IOException, InterruptedException {
        return runScript(dir, env, stdin, body, command, seconds, 0);
    }

    /**
     * As {@link #runScript(Path, Map, String, String, List, int)}; besides, where {@code idleSeconds}
     * is positive, a script whose processes together use (almost) no CPU time for that long is taken as hung
     * (a deadlock uses none) and killed the same way, its stderr saying so. Not for scripts that may
     * rightly wait (on a FIFO, a pipe, a timer).
     */
    public static Result runScript(Path dir, Map<String, String> env, String stdin, String body, List<String> command, int seconds,
            int idleSeconds) throws IOException, InterruptedException {
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
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            boolean done = false;
            String why = "still running after " + seconds + " s";
            long lastCpu = -1;
            long lastProgress = System.nanoTime();
            while (!done && System.nanoTime() < deadline) {
                done = p.waitFor(idleSeconds > 0 ? 200 : seconds * 1000L, TimeUnit.MILLISECONDS);
                if (!done && idleSeconds > 0) {
                    // An idle JVM still spends a tick now and then (its periodic task thread): more is progress.
                    long cpu = cpuTicks(p.toHandle());
                    if (lastCpu < 0 || cpu - lastCpu > 2) {
                        lastCpu = cpu;
                        lastProgress = System.nanoTime();
                    } else if (System.nanoTime() - lastProgress > TimeUnit.SECONDS.toNanos(idleSeconds)) {
                        why = "hung: no CPU time used for " + idleSeconds + " s";
                        break;
                    }
                }
            }
            if (!done) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor();
            }
            Result r = done ? new Result(p.exitValue(), read(out), read(err))
                    : new Result(TIMED_OUT, read(out), read(err) + "[killed: " + why + "]\n");
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

    /** User and system CPU time of a process and its descendants, in clock ticks (from /proc). */
    private static long cpuTicks(ProcessHandle h) {
        long sum = 0;
        for (ProcessHandle p : (Iterable<ProcessHandle>) java.util.stream.Stream.concat(java.util.stream.Stream.of(h), h.descendants())::iterator) {
            try {
                String stat = Files.readString(Path.of("/proc/" + p.pid() + "/stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                sum += Long.parseLong(f[11]) + Long.parseLong(f[12]);
            } catch (IOException | RuntimeException e) {
                // The process ended meanwhile.
            }
        }
        return sum;
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
