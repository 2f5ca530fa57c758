package dev.cpx.cli;

import dev.cpx.spi.support.PathBytes;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code cpx} running in its own JVM, watched while it runs: what it has written so far,
 * signals sent to it as a user's Ctrl-C or {@code kill} would. Its standard output and error go
 * to files (or both to one file, as on a terminal where they share the screen).
 */
final class Running implements AutoCloseable {

    private final Process process;
    private final Path out;
    private final Path err;

    private Running(Process process, Path out, Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /**
     * Starts {@code cpx args...} in {@code dir} with extra JVM options {@code jvm} (e.g.
     * {@code -Dcpx.stderr.tty=true}, as the launcher passes on a terminal) and extra environment.
     * SIGHUP, SIGINT and SIGTERM are reset to their defaults first, as in an interactive shell, in case this
     * JVM was started with them ignored. With {@code merged}, standard error goes where standard
     * output goes, as on a terminal.
     */
    static Running start(Path dir, List<String> jvm, Map<String, String> env, boolean merged, String... args)
            throws IOException {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/env", "--default-signal=HUP,INT,QUIT,TERM"));
        List<String> java = Cli.javaCommand("cpx");
        cmd.add(java.get(0));
        cmd.addAll(jvm);
        cmd.addAll(java.subList(1, java.size()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        // A null value removes the variable.
        env.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        Path out = Files.createTempFile("cpx-out", ".txt");
        Path err = Files.createTempFile("cpx-err", ".txt");
        pb.redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (merged) {
            pb.redirectErrorStream(true);
        } else {
            pb.redirectError(err.toFile());
        }
        return new Running(pb.start(), out, err);
    }

    /** Runs to the end (at most five minutes) and returns what it did. */
    static Cli.Result run(Path dir, List<String> jvm, Map<String, String> env, boolean merged, String... args)
            throws IOException, InterruptedException {
        try (Running r = start(dir, jvm, env, merged, args)) {
            return r.result();
        }
    }

    /** Sends a signal, e.g. {@code INT} or {@code TERM}. */
    void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + name + " failed");
        }
    }

    /** The process id, e.g. to look at its threads in {@code /proc}. */
    long pid() {
        return process.pid();
    }

    /** Waits until {@code condition} holds, failing after a minute or when the process ended first. */
    void awaitWhileRunning(String what, Check condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.holds()) {
            if (!process.isAlive()) {
                throw new AssertionError("cpx ended before " + what + ": " + result());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what + ": " + err());
            }
            Thread.sleep(10);
        }
    }

    /** A condition to wait for. */
    @FunctionalInterface
    interface Check {
        boolean holds() throws Exception;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Waits for the end; null when it has not ended within {@code seconds}. */
    Cli.Result awaitEnd(long seconds) throws InterruptedException, IOException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            return null;
        }
        return new Cli.Result(process.exitValue(), out(), err());
    }

    Cli.Result result() throws InterruptedException, IOException {
        Cli.Result r = awaitEnd(300);
        if (r == null) {
            throw new AssertionError("cpx did not end within 300 s: " + err());
        }
        return r;
    }

    /** Standard output so far (with standard error when merged). */
    String out() throws IOException {
        return PathBytes.decode(Files.readAllBytes(out));
    }

    /** Standard error so far (empty when merged). */
    String err() throws IOException {
        return PathBytes.decode(Files.readAllBytes(err));
    }

    @Override
    public void close() throws IOException {
        process.destroyForcibly();
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
    }
}
