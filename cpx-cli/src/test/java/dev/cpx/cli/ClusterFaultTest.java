package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Workers as real processes: four workers of which two are killed with SIGKILL at random points and
 * two more started, then finish; and GNU parallel running the workers. The tree always ends identical
 * to {@code cp -a}'s, with nothing half-written under a final name.
 */
class ClusterFaultTest {

    @TempDir
    Path dir;

    private void source() throws Exception {
        ClusterTrees.rich(dir.resolve("src"), 1200);
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
            // Once both hold a chunk (so each kill lands mid-copy, not before a first claim): waiting for
            // the second only after killing the first gave the others time to copy every chunk.
            for (int i = 0; i < 2; i++) {
                Running victim = workers.get(i);
                String pid = "@" + victim.pid() + "@";
                victim.awaitWhileRunning("a claim", () -> {
                    try (var s = Files.list(dir.resolve("plan/claimed"))) {
                        return s.anyMatch(p -> p.getFileName().toString().contains(pid));
                    }
                });
            }
            for (int i = 0; i < 2; i++) {
                Thread.sleep(random.nextInt(150));
                workers.get(i).signal("KILL");
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
        finishedAsCpA(seed);
        try (var s = Files.list(dir.resolve("plan/reports"))) {
            assertEquals(24, s.filter(p -> !p.getFileName().toString().startsWith(".")).count());
        }
    }

    /**
     * Big files split into ranges of 1 MiB, each range in a chunk of its own: a worker is killed
     * (SIGKILL) while it copies ranges, two more take over, and finish: the tree is {@code cp -a}'s,
     * no staging file is left, and the hard-linked big files were not split.
     */
    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void bigFilesSplitIntoRangesSurviveAWorkerKilledWhileItCopiesThem(String engine) throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        ClusterTrees.rich(dir.resolve("src"), 200);
        ClusterTrees.huge(dir.resolve("src"));
        assertEquals(0, Cli.gnu(dir, "-a", "src", "gnu").exit());
        Cli.Result plan = Cli.cpx(dir, "--engine=" + engine, "--plan=plan", "--chunks=6", "--split-size=1M", "-a", "src", "dst");
        assertEquals(0, plan.exit(), plan::toString);
        // 13 ranges of huge/one and 6 of huge/two (about 1 MiB each), each in another chunk: all but a
        // file's first and last ones alone in theirs.
        assertTrue(ClusterTrees.rangeChunks(dir.resolve("plan"), 968_249) >= 11, plan::toString);
        assertTrue(ClusterTrees.rangeChunks(dir.resolve("plan"), 873_814) >= 4, plan::toString);
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Running victim = Running.start(dir, List.of(), Map.of(), false, "--work=plan", "-j", "1");
        List<Running> workers = new ArrayList<>();
        try {
            // Killed once it has started on the big files' ranges, at a random point after.
            // (Workers make a new tree under its staging name: the plan's finish renames it.)
            victim.awaitWhileRunning("a range copied", () -> Files.exists(dir.resolve(".dst.cpx-plan/huge/.one.cpx-ranges"))
                    || Files.exists(dir.resolve(".dst.cpx-plan/huge/.two.cpx-ranges")));
            Thread.sleep(random.nextInt(30));
            victim.signal("KILL");
            victim.result();
            for (int i = 0; i < 2; i++) {
                workers.add(Running.start(dir, List.of(), Map.of(), false, "--work=plan", "-j", "2"));
            }
            for (Running w : workers) {
                Cli.Result r = w.result();
                assertEquals(0, r.exit(), () -> "seed " + seed + ": " + r);
            }
        } finally {
            victim.close();
            for (Running w : workers) {
                w.close();
            }
        }
        finishedAsCpA(seed);
    }

    /**
     * The two states a worker killed on a split file can leave, made exactly: a range half-written
     * into the staging file (garbage where the range goes, no mark, its chunk claimed by a process
     * that is gone) is copied again by the next worker; a file whose ranges are all marked but which
     * was never renamed into place is completed by finish (attributes, times last, then the name).
     */
    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void aHalfWrittenRangeIsCopiedAgainAndFinishCompletesAFileNotRenamed(String engine) throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        ClusterTrees.huge(dir.resolve("src"));
        assertEquals(0, Cli.gnu(dir, "-a", "src", "gnu").exit());
        Cli.Result plan = Cli.cpx(dir, "--engine=" + engine, "--plan=plan", "--chunks=2", "--split-size=1M", "--verify",
                "-a", "src", "dst");
        assertEquals(0, plan.exit(), plan::toString);
        // A worker died on a chunk of huge/one's: its claim names a process that is gone, and it had
        // written garbage where its range goes.
        String chunk = Files.readAllLines(dir.resolve("plan/manifest")).stream().skip(1).map(l -> l.split(" "))
                .filter(f -> f[1].equals("1") && f[2].equals("968249")).map(f -> f[0]).skip(3).findFirst().orElseThrow();
        Process gone = new ProcessBuilder("sleep", "60").start();
        long startMillis = gone.info().startInstant().orElseThrow().toEpochMilli();
        gone.destroyForcibly().waitFor();
        String host = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim().replaceAll("[^A-Za-z0-9.-]", "_");
        Files.move(dir.resolve("plan/todo/" + chunk),
                dir.resolve("plan/claimed/" + chunk + "@" + host + "@" + gone.pid() + "@" + startMillis + "@1"));
        Files.createDirectories(dir.resolve(".dst.cpx-plan/huge"));
        byte[] garbage = new byte[(12 << 20) + 4321];
        java.util.Arrays.fill(garbage, (byte) 0xA5);
        Path staging = dir.resolve(".dst.cpx-plan/huge/.one.cpx-ranges");
        Files.write(staging, garbage);
        Files.setAttribute(staging, "unix:mode", 0600);
        Cli.Result work = Cli.cpx(dir, "--work=plan", "-j", "2");
        assertEquals(0, work.exit(), work::toString);
        Cli.Result finish = Cli.cpx(dir, "--finish=plan");
        assertEquals(0, finish.exit(), finish::toString);
        Trees.assertSameTree(dir.resolve("gnu"), dir.resolve("dst"), ClusterTest.ALL);
        assertEquals(List.of(), ClusterTrees.partials(dir.resolve("dst")));
        assertFalse(Files.exists(dir.resolve(".dst.cpx-plan")), "the tree renamed into place");

        // The last range's worker died between its mark and the rename: the complete file is still
        // under its staging name (same inode, so the marks name it), with the time of its writing.
        // Finishing again completes it where the tree is now, under its final name.
        Path one = dir.resolve("dst/huge/one");
        staging = dir.resolve("dst/huge/.one.cpx-ranges");
        Files.move(one, staging);
        Files.setAttribute(staging, "unix:mode", 0600);
        Files.setLastModifiedTime(staging, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()));
        Cli.Result again = Cli.cpx(dir, "--finish=plan", "--json");
        assertEquals(0, again.exit(), again::toString);
        assertTrue(again.out().contains("\"files\": "), again::toString);
        Trees.assertSameTree(dir.resolve("gnu"), dir.resolve("dst"), ClusterTest.ALL);
        assertEquals(List.of(), ClusterTrees.partials(dir.resolve("dst")));
    }

    /**
     * A source changed between its ranges (one range copied after the others, from the changed
     * source) never becomes a complete file: nothing is named, finish says so and exits 1.
     */
    @Test
    void rangesCopiedFromTwoVersionsOfASourceNeverMakeAFile() throws Exception {
        ClusterTrees.huge(dir.resolve("src"));
        assertEquals(0, Cli.cpx(dir, "--plan=plan", "--split-size=1M", "-a", "src", "dst").exit());
        String late = Files.readAllLines(dir.resolve("plan/manifest")).stream().skip(1).map(l -> l.split(" "))
                .filter(f -> f[1].equals("1") && f[2].equals("968249")).map(f -> f[0]).skip(2).findFirst().orElseThrow();
        Files.move(dir.resolve("plan/todo/" + late), dir.resolve("late"));
        Cli.Result first = Cli.cpx(dir, "--work=plan");
        assertEquals(0, first.exit(), first::toString);
        assertFalse(Files.exists(dir.resolve("dst")), "a staged tree appears only when finished");
        assertFalse(Files.exists(dir.resolve(".dst.cpx-plan/huge/one")), "named with a range missing");
        // The source changes; the last range is copied from the new version.
        Files.setLastModifiedTime(dir.resolve("src/huge/one"), java.nio.file.attribute.FileTime.fromMillis(1_500_000_000_000L));
        Files.move(dir.resolve("late"), dir.resolve("plan/todo/" + late));
        Cli.Result second = Cli.cpx(dir, "--work=plan");
        assertEquals(0, second.exit(), second::toString);
        assertFalse(Files.exists(dir.resolve(".dst.cpx-plan/huge/one")), "named from two versions of its source");
        Cli.Result finish = Cli.cpx(dir, "--finish=plan");
        assertEquals(1, finish.exit(), finish::toString);
        assertTrue(finish.err().contains("huge/one' is not complete: its ranges were copied from different versions of the source"),
                finish::toString);
        assertTrue(Files.exists(dir.resolve("dst/huge/two")));
    }

    /** Finish succeeds, the tree is {@code cp -a}'s, nothing partial is left, no chunk is still claimed. */
    private void finishedAsCpA(long seed) throws Exception {
        Cli.Result finish = Cli.cpx(dir, "--finish=plan", "--json");
        assertEquals(0, finish.exit(), () -> "seed " + seed + ": " + finish);
        Trees.assertSameTree(dir.resolve("gnu"), dir.resolve("dst"), ClusterTest.ALL);
        assertEquals(List.of(), ClusterTrees.partials(dir.resolve("dst")), "seed " + seed);
        try (var s = Files.list(dir.resolve("plan/claimed"))) {
            assertEquals(0, s.count(), "the killed workers' chunks were all taken over");
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
