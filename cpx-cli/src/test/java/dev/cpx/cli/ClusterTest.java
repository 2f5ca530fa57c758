package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.CopyPlan;
import dev.cpx.api.Cpx;
import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One copy in three steps ({@code --plan}, {@code --work} by several processes, {@code --finish}),
 * as users run it: the real {@code cpx} on real trees, the result compared with GNU {@code cp -a}
 * and single-machine {@code cpx -a}; and the same through the library ({@link CopyPlan}).
 */
class ClusterTest {

    static final Detail[] ALL = {Detail.MODE, Detail.MTIME, Detail.OWNER, Detail.LINKS, Detail.XATTR};

    @TempDir
    Path dir;

    /**
     * A tree whose entries' paths, from the operands as given, reach {@code PATH_MAX} in the source
     * or in the copy: GNU cp's first call for such an entry fails, and a plain cpx copy stops where
     * GNU's does (LongPathTest). The planner refuses the tree with GNU's message for the first entry
     * beyond, as it refuses an entry it cannot read, and leaves nothing behind.
     */
    @ParameterizedTest(name = "engine={0}, long {1} path, {2}")
    @CsvSource({
        "native, source, echo data > FFFFFFFFFFFF && mkdir DDDDDDDDDDDD",
        "nio, source, echo data > FFFFFFFFFFFF && mkdir DDDDDDDDDDDD",
        "native, copy, echo data > FFFFFFFFFFFF && mkdir DDDDDDDDDDDD",
        "nio, copy, echo data > FFFFFFFFFFFF && mkdir DDDDDDDDDDDD",
        "native, copy, mkfifo PPPPPPPPPPPP",
        "nio, copy, ln -s target LLLLLLLLLLLL",
    })
    void aTreeBeyondGnuCpsReachIsRefusedByThePlanner(String engine, String side, String entries) throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        String pad = "x".repeat(40);
        String sourceName = side.equals("source") ? "s" + pad : "s";
        String parentName = side.equals("copy") ? "t" + pad + "/" : "";
        // The operands absolute: what GNU cp reaches from them is what the plan's workers reach.
        String source = dir + "/" + sourceName;
        String parent = dir + "/" + parentName;
        String target = parent + "dst";
        String gnuTarget = parent + "gnu";
        // The deepest directory's path stays under PATH_MAX on both sides; its entries' (12 bytes) on the long side reach it.
        int depth = (4096 - 1 - 13 - Math.max(source.length(), target.length())) / 2 + 1;
        String chain = String.join("/", java.util.Collections.nCopies(depth, "d"));
        try {
            // By the shell, one name at a time (mkdir -p) and from the deepest directory (cd -P).
            Cli.Result made = Cli.runScript(dir, Map.of(), null, "mkdir -p " + sourceName + "/" + chain + " "
                    + (parentName.isEmpty() ? "." : parentName) + " && cd -P " + sourceName + "/" + chain + " && " + entries, List.of());
            assertEquals(0, made.exit(), made::toString);
            Cli.Result gnu = Cli.gnu(dir, "-a", source, gnuTarget);
            Cli.Result plan = Cli.cpx(dir, "--engine=" + engine, "--plan=plan", "-a", source, target);
            String context = "GNU:\n" + gnu + "\nplan:\n" + plan;
            assertEquals(1, gnu.exit(), () -> "the scene reaches PATH_MAX for GNU cp\n" + context);
            assertEquals(1, plan.exit(), context);
            List<String> lines = plan.err().lines().toList();
            assertEquals(1, lines.size(), context);
            assertTrue(gnu.err().replace(Cli.GNU_CP + ": ", "cpx: ").replace(gnuTarget, target).lines().anyMatch(lines.get(0)::equals),
                    () -> "the planner's message is one of GNU cp's\n" + context);
            assertFalse(Files.exists(dir.resolve("plan")), "the refused plan is not left behind");
            assertFalse(Files.exists(dir.resolve(target)), "no copy made");
        } finally {
            // rm: JUnit's clean-up resolves each directory's real path, quadratic in the depth.
            Cli.runScript(dir, Map.of(), null, "rm -rf -- s* t* gnu", List.of());
        }
    }

    /**
     * A tree within GNU cp's reach from relative operands, beyond it from the same operands made
     * absolute, which is how the plan's workers reach its entries (the copy under its staging name):
     * the planner refuses it, naming that path, rather than accept what its workers would fail at.
     */
    @ParameterizedTest(name = "engine={0}, -{1}")
    @CsvSource({"native, a", "nio, a", "native, rL"})
    void aTreeBeyondTheWorkersReachIsRefusedByThePlanner(String engine, String option) throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        // The file's path from the working directory 4,090 bytes, from / longer than PATH_MAX.
        int depth = (4090 - "s/".length() - "f".length()) / 2;
        String chain = String.join("/", java.util.Collections.nCopies(depth, "d"));
        try {
            Cli.Result made = Cli.runScript(dir, Map.of(), null, "mkdir -p s/" + chain + " && cd -P s/" + chain + " && echo data > f",
                    List.of());
            assertEquals(0, made.exit(), made::toString);
            Cli.Result gnu = Cli.gnu(dir, "-" + option, "s", "gnu");
            assertEquals(0, gnu.exit(), () -> "GNU cp copies the tree from the relative operands\n" + gnu);
            Cli.Result plan = Cli.cpx(dir, "--engine=" + engine, "--plan=plan", "-" + option, "s", "dst");
            assertEquals(1, plan.exit(), plan::toString);
            List<String> lines = plan.err().lines().toList();
            assertEquals(1, lines.size(), plan::toString);
            assertTrue(lines.get(0).matches("cpx: cannot (stat|create directory) '" + java.util.regex.Pattern.quote(dir.toString())
                    + "/(s|dst|\\.dst\\.cpx-plan)/d[/d]*': File name too long"), plan::toString);
            assertFalse(Files.exists(dir.resolve("plan")), "the refused plan is not left behind");
            assertFalse(Files.exists(dir.resolve("dst")), "no copy made");
        } finally {
            Cli.runScript(dir, Map.of(), null, "rm -rf -- s gnu", List.of());
        }
    }

    /**
     * The faults {@code compat/random/cp-random.py --plan} found, each a scene copied by {@code cp}
     * in one twin and by a plan's three steps in the other: where cp copies, the plan makes the same
     * tree; where it fails before copying anything, the plan is refused with its line and nothing
     * changes. The destination {@code D} is made first: absent, a directory, a file, a dangling link,
     * a link to a directory, or a directory holding a file where the copy's subdirectory goes.
     */
    @ParameterizedTest(name = "engine={0}: cp {1} {2} {4}, D {3}")
    @CsvSource(delimiter = '|', value = {
        "native | -r  | s/ | absent      | D",
        "nio    | -a  | s/ | dir         | D",
        "native | -r  | s  | absent      | D/",
        "native | -rH | sl | dir         | D",
        "nio    | -rH | sl | dir         | D",
        "native | -r  | s  | file        | D",
        "native | -a  | s  | dangling    | D",
        "nio    | -r  | s  | dangling    | D/",
        "native | -rT | s  | link to dir | D",
        "native | -r  | s  | clash       | D",
        "nio    | -a  | s  | clash       | D",
    })
    void aPlanCopiesWhereCpCopiesAndIsRefusedWhereCpFailsFirst(String engine, String option, String source, String destination,
            String target) throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        List<Path> scenes = new ArrayList<>();
        for (String side : List.of("gnu", "cpx", "before")) {
            Path scene = Files.createDirectories(dir.resolve(side));
            Cli.Result made = Cli.runScript(scene, Map.of(), null, "mkdir -p s/a/b && echo 1 > s/a/b/f && echo 2 > s/g"
                    + " && echo 3 > f && ln -s f sl && " + switch (destination) {
                        case "absent" -> "true";
                        case "dir" -> "mkdir D";
                        case "file" -> "echo old > D";
                        case "dangling" -> "ln -s nowhere D";
                        case "link to dir" -> "mkdir real && ln -s real D";
                        case "clash" -> "mkdir -p D/s && echo old > D/s/a";
                        default -> throw new IllegalArgumentException(destination);
                    }, List.of());
            assertEquals(0, made.exit(), made::toString);
            scenes.add(scene);
        }
        Cli.Result gnu = Cli.gnu(scenes.get(0), option, source, target);
        Path cpx = scenes.get(1);
        Cli.Result plan = Cli.cpx(cpx, "--engine=" + engine, "--plan=" + dir.resolve("plan"), option, source, target);
        String context = "GNU:\n" + gnu + "\nplan:\n" + plan;
        if (gnu.exit() == 0) {
            assertEquals(0, plan.exit(), context);
            Cli.Result work = Cli.cpx(cpx, "--work=" + dir.resolve("plan"));
            Cli.Result finish = Cli.cpx(cpx, "--finish=" + dir.resolve("plan"));
            assertEquals(0, work.exit(), work::toString);
            assertEquals(0, finish.exit(), finish::toString);
            // (The twins' sources were made at different times: -a's times are each twin's own.)
            Trees.assertSameTree(scenes.get(0), cpx, Detail.MODE, Detail.OWNER, Detail.LINKS);
        } else {
            assertEquals(1, plan.exit(), context);
            List<String> lines = plan.err().lines().toList();
            assertEquals(1, lines.size(), context);
            assertTrue(gnu.err().replace(Cli.GNU_CP + ": ", "cpx: ").lines().anyMatch(lines.get(0)::equals),
                    () -> "the planner's line is one of cp's\n" + context);
            assertFalse(Files.exists(dir.resolve("plan")), "the refused plan is not left behind");
            Trees.assertSameTree(scenes.get(2), cpx, Detail.MODE, Detail.OWNER, Detail.LINKS);
        }
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void planTwoWorkersAndFinishCopyAsCpA(String engine) throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        ClusterTrees.rich(dir.resolve("src"), 300);
        assertEquals(0, Cli.gnu(dir, "-a", "src", "gnu").exit());
        Cli.Result single = Cli.cpx(dir, "--engine=" + engine, "-a", "src", "single");
        assertEquals(0, single.exit(), single::toString);

        Cli.Result plan = Cli.cpx(dir, "--engine=" + engine, "--plan=plan", "--chunks=12", "-a", "src", "dst");
        assertEquals(0, plan.exit(), plan::toString);
        assertTrue(plan.err().contains("planned 12 chunks"), plan::toString);
        // Two workers at once, each with two copies in flight.
        List<Running> workers = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                workers.add(Running.start(dir, List.of(), Map.of(), false, "--work=plan", "-j", "2"));
            }
            for (Running w : workers) {
                Cli.Result r = w.result();
                assertEquals(0, r.exit(), r::toString);
            }
        } finally {
            for (Running w : workers) {
                w.close(); // its output files too
            }
        }
        Cli.Result finish = Cli.cpx(dir, "--finish=plan", "--json");
        assertEquals(0, finish.exit(), finish::toString);
        @SuppressWarnings("unchecked")
        Map<String, Object> json = (Map<String, Object>) Json.parse(finish.out());
        assertEquals("completed", json.get("status"));
        assertEquals(0L, ((Number) json.get("failed")).longValue());
        Trees.assertSameTree(dir.resolve("gnu"), dir.resolve("dst"), ALL);
        Trees.assertSameTree(dir.resolve("single"), dir.resolve("dst"), ALL);
        assertEquals(List.of(), ClusterTrees.partials(dir.resolve("dst")));

        // A second round of work finds nothing to do; finish is the same.
        Cli.Result again = Cli.cpx(dir, "--work=plan");
        assertEquals(0, again.exit(), again::toString);
        assertTrue(again.err().contains("worker copied 0 chunks"), again::toString);
    }

    @Test
    void withoutPreservingTheTreeIsCpR() throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        ClusterTrees.rich(dir.resolve("src"), 50);
        assertEquals(0, Cli.gnu(dir, "-r", "src", "gnu").exit());
        assertEquals(0, Cli.cpx(dir, "--plan=plan", "--chunks=5", "-r", "--exclude=*.never", "src", "dst").exit());
        Cli.Result work = Cli.cpx(dir, "--work=plan");
        assertEquals(0, work.exit(), work::toString);
        Cli.Result finish = Cli.cpx(dir, "--finish=plan");
        assertEquals(0, finish.exit(), finish::toString);
        Trees.assertSameTree(dir.resolve("gnu"), dir.resolve("dst"), Detail.MODE, Detail.LINKS);
    }

    @Test
    void excludesApplyAtPlanTime() throws Exception {
        Trees.generate(dir.resolve("src"));
        Cli.Result plan = Cli.cpx(dir, "--plan=plan", "-a", "--exclude=many/", "--exclude=*.bin", "src", "dst");
        assertEquals(0, plan.exit(), plan::toString);
        assertEquals(0, Cli.cpx(dir, "--work=plan").exit());
        assertEquals(0, Cli.cpx(dir, "--finish=plan").exit());
        assertTrue(Files.exists(dir.resolve("dst/small.txt")));
        assertTrue(!Files.exists(dir.resolve("dst/many")) && !Files.exists(dir.resolve("dst/a/big.bin")));
    }

    @Test
    void theLibraryRunsTheSameSteps() throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        ClusterTrees.rich(dir.resolve("src"), 100);
        assertEquals(0, Cli.gnu(dir, "-a", "src", "gnu").exit());
        CopyPlan plan = CopyPlan.at(Cpx.create(), dir.resolve("plan"));
        CopyOptions options = CopyOptions.builder().recursive(true).preserve(Attribute.MODE, Attribute.OWNERSHIP,
                Attribute.TIMESTAMPS, Attribute.LINKS, Attribute.XATTR).build();
        CopyPlan.Planned p = plan.create(List.of(dir.resolve("src")), dir.resolve("dst"), options, 6, Duration.ofSeconds(30));
        assertEquals(6, p.chunks());
        assertEquals(6, plan.status().todo());
        CopyPlan.WorkDone w = plan.work(2, line -> { });
        assertTrue(w.succeeded(), () -> w.failures().toString());
        assertEquals(6, w.chunks());
        CopyPlan.Status s = plan.status();
        assertEquals(6, s.done());
        assertEquals(s.bytes(), s.bytesDone());
        CopyPlan.Finished f = plan.finish();
        assertTrue(f.succeeded(), () -> f.failures().toString());
        assertEquals(p.directories(), f.summary().directories());
        Trees.assertSameTree(dir.resolve("gnu"), dir.resolve("dst"), ALL);
    }

    /**
     * {@code --resume}'s rule holds for split files: a second plan of the same copy onto the complete
     * destination leaves a split file as it is (same inode: not rewritten), a changed source is
     * copied again, and the tree is {@code cp -a}'s.
     */
    @Test
    void aSecondPlanOntoACompleteCopyKeepsSplitFilesThatAreComplete() throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp missing: comparison skipped");
        ClusterTrees.huge(dir.resolve("src"));
        for (String plan : List.of("plan", "plan2")) {
            Cli.Result p = Cli.cpx(dir, "--plan=" + plan, "--split-size=1M", "-a", "-T", "src", "dst");
            assertEquals(0, p.exit(), p::toString);
            Cli.Result w = Cli.cpx(dir, "--work=" + plan, "-j", "2");
            assertEquals(0, w.exit(), w::toString);
            Cli.Result f = Cli.cpx(dir, "--finish=" + plan);
            assertEquals(0, f.exit(), f::toString);
            if (plan.equals("plan")) {
                // Then huge/two changes (same size, new time) and huge/one is kept as copied.
                Object before = Files.getAttribute(dir.resolve("dst/huge/one"), "unix:ino");
                Files.write(dir.resolve("src/huge/two"), dev.cpx.testing.Trees.randomBytes((5 << 20) + 1, 99));
                Files.setLastModifiedTime(dir.resolve("src/huge/two"), java.nio.file.attribute.FileTime.fromMillis(1_400_000_000_000L));
                Files.writeString(dir.resolve("one.ino"), before.toString());
            } else {
                assertTrue(!w.err().contains(" 0 skipped") && w.err().contains(" 0 failed"), w::toString);
            }
        }
        assertEquals(Files.readString(dir.resolve("one.ino")), Files.getAttribute(dir.resolve("dst/huge/one"), "unix:ino").toString());
        assertEquals(0, Cli.gnu(dir, "-a", "src", "gnu").exit());
        Trees.assertSameTree(dir.resolve("gnu"), dir.resolve("dst"), ALL);
        assertEquals(List.of(), ClusterTrees.partials(dir.resolve("dst")));
    }

    @Test
    void finishNamesChunksNotDoneAndExitsOne() throws Exception {
        Trees.generate(dir.resolve("src"));
        assertEquals(0, Cli.cpx(dir, "--plan=plan", "--chunks=3", "-a", "src", "dst").exit());
        Cli.Result finish = Cli.cpx(dir, "--finish=plan", "--json");
        assertEquals(1, finish.exit(), finish::toString);
        assertTrue(finish.err().contains("chunk 00000001 is not done (never claimed)"), finish::toString);
        Cli.Result status = Cli.cpx(dir, "--status=plan");
        assertEquals(0, status.exit(), status::toString);
        assertTrue(status.out().contains("chunks: 3 to do, 0 claimed, 0 done, 0 failed (of 3)"), status::toString);
    }

    @Test
    void theStepsAreOptionsThatNoCpCommandLineHas() throws Exception {
        Files.createDirectories(dir.resolve("src"));
        Cli.Result noOperands = Cli.cpx(dir, "--plan=plan", "-a");
        assertEquals(1, noOperands.exit(), noOperands::toString);
        assertTrue(noOperands.err().startsWith("cpx: missing file operand"), noOperands::toString);
        assertEquals(0, Cli.cpx(dir, "--plan=plan", "-r", "src", "dst").exit());
        Cli.Result options = Cli.cpx(dir, "--work=plan", "-a");
        assertEquals(1, options.exit(), options::toString);
        assertTrue(options.err().contains("--archive cannot be given to --work"), options::toString);
        Cli.Result operands = Cli.cpx(dir, "--finish=plan", "src");
        assertEquals(1, operands.exit(), operands::toString);
        assertTrue(operands.err().contains("extra operand 'src'"), operands::toString);
        Cli.Result two = Cli.cpx(dir, "--work=plan", "--finish=plan");
        assertEquals(1, two.exit(), two::toString);
        assertTrue(two.err().contains("only one of --plan, --work, --finish and --status"), two::toString);
        Cli.Result chunksAlone = Cli.cpx(dir, "--chunks=3", "src", "dst2");
        assertEquals(1, chunksAlone.exit(), chunksAlone::toString);
        Cli.Result badSplit = Cli.cpx(dir, "--plan=plan3", "--split-size=12X", "-r", "src", "dst");
        assertEquals(1, badSplit.exit(), badSplit::toString);
        assertTrue(badSplit.err().startsWith("cpx: invalid split size: '12X'"), badSplit::toString);
        Cli.Result parents = Cli.cpx(dir, "--plan=plan2", "--backup", "-r", "src", "dst");
        assertEquals(1, parents.exit(), parents::toString);
        assertEquals("cpx: --backup cannot be used with a plan\n", parents.err());
        Cli.Result notEmpty = Cli.cpx(dir, "--plan=plan", "-r", "src", "dst");
        assertEquals(1, notEmpty.exit(), notEmpty::toString);
        assertEquals("cpx: plan directory 'plan' is not empty\n", notEmpty.err());
        // GNU abbreviations keep their meaning: --f is still --force, --st --strip-trailing-slashes.
        Files.writeString(dir.resolve("one"), "1");
        assertEquals(0, Cli.cpx(dir, "--f", "--st", "one", "two").exit());
        assertEquals("1", Files.readString(dir.resolve("two")));
    }

    /**
     * An empty operand names nothing, as on one machine (EmptyOperandTest): no plan copies into the
     * working directory, whose files stay as they were, and each refusal is GNU's words. A refused
     * plan leaves no plan directory behind, so the corrected command can run.
     */
    @Test
    void anEmptyOperandIsRefusedWhenPlanned() throws Exception {
        Files.createDirectories(dir.resolve("elsewhere/src"));
        Files.writeString(dir.resolve("elsewhere/src/y"), "new");
        Files.writeString(dir.resolve("y"), "old");
        String[][] cases = {
            {"--plan=p1", "elsewhere/src/y", "", "cpx: cannot create regular file '': No such file or directory\n"},
            {"--plan=p2", "-r", "elsewhere/src", "", "cpx: cannot create directory '': No such file or directory\n"},
            {"--plan=p3", "-rT", "elsewhere/src", "", "cpx: cannot create directory '': No such file or directory\n"},
            {"--plan=p4", "-r", "", "elsewhere/copy", "cpx: cannot stat '': No such file or directory\n"},
            {"--plan=p5", "-r", "-t", "", "elsewhere/src", "cpx: target directory '': No such file or directory\n"},
            {"--plan=p6", "-r", "elsewhere/missing", "elsewhere/copy", "cpx: cannot stat 'elsewhere/missing': No such file or directory\n"},
        };
        for (String[] c : cases) {
            String[] args = java.util.Arrays.copyOf(c, c.length - 1);
            Cli.Result r = Cli.cpx(dir, args);
            assertEquals(1, r.exit(), r::toString);
            assertEquals(c[c.length - 1], r.err(), String.join(" ", args));
            assertFalse(Files.exists(dir.resolve(c[0].substring("--plan=".length()))), "a refused plan leaves no plan directory");
            Cli.Result work = Cli.cpx(dir, "--work=" + c[0].substring("--plan=".length()));
            assertEquals(1, work.exit(), work::toString);
        }
        for (String step : List.of("--plan=", "--work=", "--finish=", "--status=")) {
            Path empty = Files.createDirectories(dir.resolve("empty" + step.substring(2, 6)));
            Cli.Result r = step.equals("--plan=") ? Cli.cpx(empty, step, "-r", "../elsewhere/src", "../elsewhere/copy") : Cli.cpx(empty, step);
            assertEquals(1, r.exit(), r::toString);
            assertEquals("cpx: plan directory '': No such file or directory\n", r.err(), step);
            try (var left = Files.list(empty)) {
                assertEquals(0, left.count(), "no plan written into the working directory: " + step);
            }
        }
        assertEquals("old", Files.readString(dir.resolve("y")));
        assertFalse(Files.exists(dir.resolve("src")), "nothing copied into the working directory");
        assertFalse(Files.exists(dir.resolve("elsewhere/copy")));
    }
}
