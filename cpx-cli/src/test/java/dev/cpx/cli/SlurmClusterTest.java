package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.testing.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Slurm example ({@code examples/slurm/}) on a real one-node Slurm cluster started by the test:
 * plan, a 4-task job array of workers, one running task cancelled with {@code scancel}, finish; then
 * a worker and finish again, as an operator would; the tree is identical to {@code cp -a}'s and to
 * single-machine {@code cpx -a}'s.
 */
class SlurmClusterTest {

    @TempDir
    Path dir;

    /** The example engine plugin ({@code examples/cpx-engine-example}), built into a plugin directory. */
    private Path throttledEngine() throws Exception {
        Path sources = Path.of("..", "examples", "cpx-engine-example", "src", "main", "java", "dev", "cpx", "example", "throttled");
        Map<String, String> classes = new java.util.HashMap<>();
        for (String name : List.of("Rates", "Throttle", "ThrottledEngine")) {
            classes.put("dev.cpx.example.throttled." + name, Files.readString(sources.resolve(name + ".java")));
        }
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        PluginJars.build(Files.createDirectories(dir.resolve("build")), plugins.resolve("throttled.jar"), classes,
                List.of("dev.cpx.example.throttled.ThrottledEngine"));
        return plugins;
    }

    /** What the jobs printed, for failure messages. */
    private String outputs() {
        StringBuilder sb = new StringBuilder();
        try (var s = Files.list(dir)) {
            for (Path p : s.filter(p -> p.getFileName().toString().endsWith(".out")).sorted().toList()) {
                sb.append("--- ").append(p.getFileName()).append('\n').append(Files.readString(p));
            }
        } catch (java.io.IOException e) {
            sb.append(e);
        }
        return sb.toString();
    }

    @Test
    void planArrayCancelRerunFinish() throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        assumeTrue(SlurmCluster.available(), "Slurm (slurmctld, slurmd, munge) is not installed and cannot be installed here");
        Path examples = Path.of("..", "examples", "slurm").toAbsolutePath().normalize();
        assertTrue(Files.isExecutable(examples.resolve("submit.sh")), examples::toString);
        ClusterTrees.rich(dir.resolve("src"), 600);
        Path big = Files.createDirectories(dir.resolve("src/big"));
        for (int i = 0; i < 16; i++) {
            Files.write(big.resolve("b" + i), Trees.randomBytes((1 << 21) + i * 4099, 900 + i));
        }
        assertEquals(0, Cli.gnu(dir, "-a", "src", "gnu").exit());
        assertEquals(0, Cli.cpx(dir, "-a", "src", "single").exit());
        Path cpx = ClusterTrees.launcher(dir.resolve("bin"));

        try (SlurmCluster slurm = SlurmCluster.start()) {
            Map<String, String> env = slurm.env();
            env.put("CPX", cpx.toString());
            env.put("CPX_CHUNKS", "32");
            env.put("CPX_JOBS", "1");
            // The example engine plugin that paces each worker (4 MiB/s), so a cancel lands mid-copy.
            env.put("CPX_PLUGIN_PATH", throttledEngine().toString());
            env.put("CPX_THROTTLE_RATE", "4M");
            Cli.Result submitted = Cli.runScript(dir, env, null, "exec \"$@\"",
                    List.of(examples.resolve("submit.sh").toString(), dir.resolve("plan").toString(), "4", "--engine=throttled", "-a", "src", "dst"));
            assertEquals(0, submitted.exit(), submitted::toString);
            String[] jobs = submitted.out().trim().split(" ");
            assertEquals(3, jobs.length, submitted::toString);
            String array = jobs[1];

            // Cancel a task while its worker holds a chunk (so the cancel lands mid-copy): the job of
            // the claim's process, as Slurm knows it.
            String cancelled = null;
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (cancelled == null) {
                assertTrue(System.nanoTime() < deadline, () -> "no worker claimed a chunk\n" + outputs() + slurm.logs());
                List<String> claims;
                try (var s = Files.list(dir.resolve("plan/claimed"))) {
                    claims = s.map(p -> p.getFileName().toString()).toList();
                } catch (java.nio.file.NoSuchFileException e) {
                    claims = List.of();
                }
                for (String claim : claims) {
                    String pid = claim.split("@")[2];
                    // The task's own job id, from the worker's environment (this node's /proc).
                    String environ;
                    try {
                        environ = new String(Files.readAllBytes(Path.of("/proc", pid, "environ")), java.nio.charset.StandardCharsets.UTF_8);
                    } catch (java.io.IOException e) {
                        continue;
                    }
                    // scancel takes an array task as ARRAYJOB_TASK (not its raw job id).
                    Map<String, String> vars = new java.util.HashMap<>();
                    for (String v : environ.split("\0")) {
                        int eq = v.indexOf('=');
                        if (eq > 0) {
                            vars.put(v.substring(0, eq), v.substring(eq + 1));
                        }
                    }
                    if (vars.containsKey("SLURM_ARRAY_JOB_ID") && vars.containsKey("SLURM_ARRAY_TASK_ID")) {
                        String job = vars.get("SLURM_ARRAY_JOB_ID") + "_" + vars.get("SLURM_ARRAY_TASK_ID");
                        slurm.slurm(dir, "scancel", job);
                        String state;
                        do {
                            Thread.sleep(50);
                            state = slurm.state(job);
                        } while (state.equals("RUNNING") || state.equals("COMPLETING"));
                        // A task that ended by itself just before the cancel does not count: try another.
                        if (state.equals("CANCELLED")) {
                            cancelled = job;
                        }
                        break;
                    }
                }
                if (cancelled == null) {
                    Thread.sleep(50);
                }
            }
            slurm.awaitIdle(240);
            assertEquals("CANCELLED", slurm.state(cancelled), "task " + cancelled);

            // Re-run: one more worker, then finish again.
            String rerun = slurm.slurm(dir, "sbatch", "--parsable", examples.resolve("work.sbatch").toString(),
                    dir.resolve("plan").toString()).trim();
            String finish = slurm.slurm(dir, "sbatch", "--parsable", "--dependency=afterok:" + rerun,
                    examples.resolve("finish.sbatch").toString(), dir.resolve("plan").toString()).trim();
            slurm.awaitIdle(240);
            assertEquals("COMPLETED", slurm.state(rerun), this::outputs);
            String output = Files.readString(dir.resolve("cpx-finish-" + finish + ".out"));
            assertEquals("COMPLETED", slurm.state(finish), this::outputs);
            assertTrue(output.contains("\"status\": \"completed\""), output);
        }
        Trees.assertSameTree(dir.resolve("gnu"), dir.resolve("dst"), ClusterTest.ALL);
        Trees.assertSameTree(dir.resolve("single"), dir.resolve("dst"), ClusterTest.ALL);
        assertEquals(List.of(), ClusterTrees.partials(dir.resolve("dst")));
    }
}
