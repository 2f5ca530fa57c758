package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.testing.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workers as real processes: four workers of which two are killed with SIGKILL at random points and
 * two more started, then finish; and GNU parallel running the workers. The tree always ends identical
 * to {@code cp -a}'s, with nothing half-written under a final name.
 */
class ClusterFaultTest {

    @TempDir
    Path dir;

    private void source() throws Exception {
        ClusterTrees.rich(dir.resolve("src"), 600);
        Path big = Files.createDirectories(dir.resolve("src/big"));
        for (int i = 0; i < 16; i++) {
            Files.write(big.resolve("b" + i), Trees.randomBytes((1 << 20) + i * 65_537, 500 + i));
        }
        assertEquals(0, Cli.gnu(dir, "-a", "src", "gnu").exit());
    }

    @Test
    void twoWorkersKilledAtRandomPointsAndTwoMoreStartedLeaveTheSameTree() throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        source();
        Cli.Result plan = Cli.cpx(dir, "--plan=plan", "--chunks=24", "-a", "src", "dst");
        assertEquals(0, plan.exit(), plan::toString);
        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<Running> workers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            workers.add(Running.start(dir, List.of(), Map.of(), false, "--work=plan", "-j", "1"));
        }
        try {
            for (int i = 0; i < 2; i++) {
                Running victim = workers.get(i);
                String pid = "@" + victim.pid() + "@";
                // Once it holds a chunk (so the kill lands mid-copy, not before the first claim).
                victim.awaitWhileRunning("a claim", () -> {
                    try (var s = Files.list(dir.resolve("plan/claimed"))) {
                        return s.anyMatch(p -> p.getFileName().toString().contains(pid));
                    }
                });
                Thread.sleep(random.nextInt(400));
                victim.signal("KILL");
            }
            for (int i = 0; i < 2; i++) {
                workers.add(Running.start(dir, List.of(), Map.of(), false, "--work=plan", "-j", "1"));
            }
            for (int i = 2; i < workers.size(); i++) {
                Cli.Result r = workers.get(i).result();
                assertEquals(0, r.exit(), () -> "seed " + seed + ": " + r);
            }
        } finally {
            for (Running w : workers) {
                w.close();
            }
        }
        Cli.Result finish = Cli.cpx(dir, "--finish=plan", "--json");
        assertEquals(0, finish.exit(), () -> "seed " + seed + ": " + finish);
        Trees.assertSameTree(dir.resolve("gnu"), dir.resolve("dst"), ClusterTest.ALL);
        assertEquals(List.of(), ClusterTrees.partials(dir.resolve("dst")), "seed " + seed);
        try (var s = Files.list(dir.resolve("plan/claimed"))) {
            assertEquals(0, s.count(), "the killed workers' chunks were all taken over");
        }
        try (var s = Files.list(dir.resolve("plan/reports"))) {
            assertEquals(24, s.filter(p -> !p.getFileName().toString().startsWith(".")).count());
        }
    }

    @Test
    void gnuParallelRunsTheWorkers() throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        assumeTrue(Packages.ensure("parallel", "parallel"), "GNU parallel is not installed and cannot be installed here");
        source();
        Path bin = dir.resolve("bin");
        ClusterTrees.launcher(bin);
        Map<String, String> env = Map.of("PATH", bin + ":" + System.getenv("PATH"));
        Cli.Result r = Cli.runScript(dir, env, null, "set -e\n"
                + "cpx --plan=plan --chunks=16 -a src dst\n"
                + "parallel --will-cite -j 4 -n0 cpx --work=plan -j 1 ::: 1 2 3 4\n"
                + "cpx --finish=plan --json > finish.json\n", List.of());
        assertEquals(0, r.exit(), r::toString);
        assertTrue(Files.readString(dir.resolve("finish.json")).contains("\"status\": \"completed\""));
        Trees.assertSameTree(dir.resolve("gnu"), dir.resolve("dst"), ClusterTest.ALL);
        assertEquals(List.of(), ClusterTrees.partials(dir.resolve("dst")));
    }
}
