package dev.cpx.cli;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real one-node Slurm cluster (Debian's slurmctld, slurmd and munge), started for a test in its own
 * scratch directory with its own ports and configuration, and stopped with everything it ran (see
 * ../shared/notes/slurm-on-one-machine.md for the settings and their reasons).
 */
final class SlurmCluster implements AutoCloseable {

    private final Path scratch;
    private final List<Process> daemons = new ArrayList<>();
    private final Map<String, String> env = new HashMap<>();

    private SlurmCluster(Path scratch) {
        this.scratch = scratch;
    }

    /** Whether the packages are there (installing them where missing); false where Slurm cannot be installed. */
    static boolean available() {
        return Packages.ensure("slurmctld", "slurmctld", "slurmd", "slurm-client", "munge")
                && Packages.onPath("slurmd") && Packages.onPath("munged") && Packages.onPath("sbatch");
    }

    static SlurmCluster start() throws Exception {
        Path scratch = Files.createTempDirectory("cpx-slurm");
        Files.setAttribute(scratch, "unix:mode", 0755);
        SlurmCluster c = new SlurmCluster(scratch);
        try {
            c.boot();
        } catch (Exception | Error e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** The environment that points Slurm's commands at this cluster. */
    Map<String, String> env() {
        return env;
    }

    private void boot() throws Exception {
        Path munge = Files.createDirectories(scratch.resolve("munge"));
        Files.setAttribute(munge, "unix:mode", 0711);
        Path key = scratch.resolve("munge.key");
        exec(List.of("mungekey", "-c", "-k", key.toString()));
        Files.setAttribute(key, "unix:mode", 0600);
        Path socket = munge.resolve("munge.socket");
        daemons.add(daemon("munged", List.of("munged", "-F", "-f", "--key-file=" + key, "--socket=" + socket,
                "--pid-file=" + scratch.resolve("munged.pid"), "--log-file=" + scratch.resolve("munged.log"),
                "--seed-file=" + scratch.resolve("munged.seed"))));
        await("munge", () -> run(List.of("bash", "-c", "munge -S " + socket + " -n | unmunge -S " + socket)) == 0);

        String node = output(List.of("hostname", "-s")).trim();
        String memory = output(List.of("slurmd", "-C")).replaceAll("(?s).*RealMemory=(\\d+).*", "$1");
        Files.createDirectories(scratch.resolve("state"));
        Files.createDirectories(scratch.resolve("spool"));
        String conf = String.join("\n",
                "ClusterName=cpxtest",
                "SlurmctldHost=" + node + "(127.0.0.1)",
                "SlurmctldPort=" + freePort(),
                "SlurmdPort=" + freePort(),
                "AuthType=auth/munge",
                "CredType=cred/munge",
                "AuthInfo=socket=" + socket,
                "SlurmUser=root",
                "SlurmdUser=root",
                "StateSaveLocation=" + scratch.resolve("state"),
                "SlurmdSpoolDir=" + scratch.resolve("spool"),
                "SlurmctldPidFile=" + scratch.resolve("slurmctld.pid"),
                "SlurmdPidFile=" + scratch.resolve("slurmd.pid"),
                "SlurmctldLogFile=" + scratch.resolve("slurmctld.log"),
                "SlurmdLogFile=" + scratch.resolve("slurmd.log"),
                "ProctrackType=proctrack/linuxproc",
                "TaskPlugin=task/none",
                "JobAcctGatherType=jobacct_gather/none",
                "AccountingStorageType=accounting_storage/none",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_CPU",
                "MpiDefault=none",
                "ReturnToService=2",
                "SchedulerParameters=batch_sched_delay=0",
                "KillWait=2",
                "DependencyParameters=kill_invalid_depend",
                "MinJobAge=300",
                "NodeName=" + node + " NodeAddr=127.0.0.1 CPUs=2 RealMemory=" + memory + " State=UNKNOWN",
                "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP", "");
        Path file = scratch.resolve("slurm.conf");
        Files.writeString(file, conf, StandardCharsets.US_ASCII);
        env.put("SLURM_CONF", file.toString());
        daemons.add(daemon("slurmctld", List.of("slurmctld", "-D", "-i")));
        daemons.add(daemon("slurmd", List.of("slurmd", "-D")));
        await("an idle node", () -> output(List.of("sinfo", "-h", "-o", "%t")).trim().equals("idle"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private Process daemon(String name, List<String> command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(scratch.resolve(name + ".out").toFile());
        pb.environment().putAll(env);
        return pb.start();
    }

    /** Runs a Slurm command against this cluster, in {@code dir}; its standard output, failing on a non-zero exit. */
    String slurm(Path dir, String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        pb.environment().putAll(env);
        Path out = Files.createTempFile(scratch, "out", ".txt");
        Path err = Files.createTempFile(scratch, "err", ".txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " failed: " + Files.readString(err));
        }
        return Files.readString(out);
    }

    /** A job's (or array task's) state, e.g. RUNNING, COMPLETED, FAILED, CANCELLED. */
    String state(String job) throws Exception {
        String out = slurm(scratch, "scontrol", "-o", "show", "job", job);
        return out.replaceAll("(?s).*JobState=(\\S+).*", "$1");
    }

    /** Waits until no job of this cluster is pending or running. */
    void awaitIdle(int seconds) throws Exception {
        await("every job to end", () -> slurm(scratch, "squeue", "-h", "-o", "%i").isBlank(), seconds);
    }

    private void await(String what, Check check) throws Exception {
        await(what, check, 60);
    }

    private void await(String what, Check check, int seconds) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!check.holds()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("Slurm: timed out waiting for " + what + "\n" + logs());
            }
            Thread.sleep(100);
        }
    }

    @FunctionalInterface
    interface Check {
        boolean holds() throws Exception;
    }

    String logs() {
        StringBuilder sb = new StringBuilder();
        for (String name : List.of("slurmctld.log", "slurmd.log", "munged.log")) {
            try {
                List<String> lines = Files.readAllLines(scratch.resolve(name));
                sb.append("--- ").append(name).append('\n');
                lines.subList(Math.max(0, lines.size() - 15), lines.size()).forEach(l -> sb.append(l).append('\n'));
            } catch (IOException e) {
                sb.append("--- ").append(name).append(": none\n");
            }
        }
        return sb.toString();
    }

    private int run(List<String> command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(env);
        return pb.start().waitFor();
    }

    private String output(List<String> command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    private static void exec(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (p.waitFor() != 0) {
            throw new IOException("failed: " + command);
        }
    }

    /** Cancels every job, waits for them to end, stops the daemons (by their processes) and removes the scratch directory. */
    @Override
    public void close() throws Exception {
        try {
            if (env.containsKey("SLURM_CONF") && daemons.size() == 3) {
                run(List.of("scancel", "--user=root"));
                try {
                    awaitIdle(60);
                } catch (AssertionError e) {
                    // stop the daemons anyway
                }
            }
        } finally {
            for (int i = daemons.size() - 1; i >= 0; i--) {
                Process d = daemons.get(i);
                d.destroy();
                if (!d.waitFor(10, TimeUnit.SECONDS)) {
                    d.destroyForcibly().waitFor();
                }
            }
            try (Stream<Path> s = Files.walk(scratch)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
