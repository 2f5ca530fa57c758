package dev.cpx.cli.differential;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.cli.Cli;
import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import dev.cpx.testing.Unprivileged;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import dev.cpx.api.EngineRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * Runs {@link Row}s: for each, three scenes built by the same script (GNU cp's and one per cpx
 * engine), GNU cp ({@code /usr/bin/cp}, invoked as {@code cp}) in the first and cpx (program name
 * {@code cp}, the engine chosen by its defaults file so the arguments are GNU's own) in the
 * others; then each engine's run is compared with GNU's: exit status, stdout, stderr (exactly;
 * sorted only where several entries are copied) and the whole scene (type, content, mode, owner,
 * inode sharing and link counts, symlink targets, xattrs, and modification times — a time set by
 * the run itself reads as {@code fresh}, so only preserved or untouched times compare by value;
 * access times too where timestamps are preserved).
 *
 * <p>Rows run in a small pool of threads ({@code -Dcpx.matrix.threads}, default 2): each cpx
 * process start costs a few tenths of a second, almost all of it CPU. Each row and engine is one
 * JUnit dynamic test, named {@code group[args, variant, engine]}; a row whose runs differ fails and
 * is written to {@code target/differential/GROUP.jsonl} for the failure report
 * ({@link FailureReport}).
 */
public final class Differential {

    static final List<String> ENGINES = List.of("native", "nio");

    /** The scenes' fixed times (entries made or touched by a run read as {@code fresh}). */
    static final String MTIME = "@1500000000.123456789";
    static final String ATIME = "@1400000000.987654321";

    private static final int THREADS = Integer.getInteger("cpx.matrix.threads", 2);
    /** Seconds a run may take before it is killed and compared as exit 124 ({@code -Dcpx.matrix.timeout}). */
    private static final int TIMEOUT = Integer.getInteger("cpx.matrix.timeout", 60);
    /** Seconds a run may use no CPU before it is taken as hung and killed, except in rows that wait on purpose. */
    private static final int IDLE = Integer.getInteger("cpx.matrix.idle", 3);
    private static final boolean KEEP = Boolean.getBoolean("cpx.matrix.keep");
    private static final ExecutorService POOL = Executors.newFixedThreadPool(THREADS, r -> {
        Thread t = new Thread(r, "differential");
        t.setDaemon(true);
        return t;
    });
    private static Path root;
    private static final Map<String, Path> CONFIGS = new TreeMap<>();
    private static final boolean IS_ROOT = Unprivileged.isRoot();

    private Differential() {
    }

    /** What one tool did in its scene. */
    record Run(Cli.Result result, Map<String, String> tree) {
    }

    /** GNU's run and each engine's, for one row. */
    record Outcome(Row row, String setupScript, Run gnu, Map<String, Run> cpx) {
    }

    /** The dynamic tests of {@code rows}, two per row (one per engine); the rows start running at once. */
    public static Stream<DynamicTest> tests(List<Row> rows) {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp is not installed at /usr/bin/cp: the differential suite needs it as its judge");
        List<DynamicTest> tests = new ArrayList<>();
        rows.stream().map(r -> r.group).distinct().forEach(FailureLog::start);
        for (Row row : rows) {
            Future<Outcome> outcome = POOL.submit(() -> execute(row));
            for (String engine : ENGINES) {
                tests.add(DynamicTest.dynamicTest(row.name(engine), () -> check(row, engine, await(outcome))));
            }
        }
        return tests.stream();
    }

    private static Outcome await(Future<Outcome> f) throws Exception {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception x) {
                throw x;
            }
            throw e;
        }
    }

    private static synchronized Path root() throws IOException {
        if (root == null) {
            root = Files.createTempDirectory("cpx-differential");
            Files.setAttribute(root, "unix:mode", 0755);
            Path r = root;
            if (!KEEP) {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> removeTree(r)));
            }
        }
        return root;
    }

    /** A defaults file choosing {@code engine} (XDG_CONFIG_HOME), so the command line is GNU's. */
    private static synchronized Path config(String engine) throws IOException {
        Path dir = CONFIGS.get(engine);
        if (dir == null) {
            dir = Files.createDirectories(root().resolve("config-" + engine + "/cpx"));
            Files.writeString(dir.resolve("cpx.properties"), "engine = " + engine + "\n");
            Files.setAttribute(dir, "unix:mode", 0755);
            Files.setAttribute(dir.getParent(), "unix:mode", 0755);
            dir = dir.getParent();
            CONFIGS.put(engine, dir);
        }
        return dir;
    }

    static Outcome execute(Row row) throws Exception {
        long start = System.nanoTime();
        try {
            return executeTimed(row);
        } finally {
            long ms = (System.nanoTime() - start) / 1_000_000;
            if (ms > SLOW_MS) {
                System.err.println("[differential] slow row (" + ms + " ms): " + row.name("both"));
            }
        }
    }

    /** Rows slower than this are named on stderr ({@code -Dcpx.matrix.slow}, milliseconds). */
    private static final long SLOW_MS = Long.getLong("cpx.matrix.slow", 3000);

    private static Outcome executeTimed(Row row) throws Exception {
        if (row.mounts) {
            assumeTrue(IS_ROOT, "mounting a tmpfs needs root");
        }
        // Before any scene is built: a row run as the account skips where the tests do not run as root.
        List<String> user = !row.unprivileged ? List.of() : row.groups == null ? Unprivileged.prefix() : Unprivileged.prefix(row.groups);
        Path base = Files.createTempDirectory(root(), "row");
        Files.setAttribute(base, "unix:mode", 0755);
        String script = setupScript(row);
        try {
            Map<String, Path> scenes = new LinkedHashMap<>();
            scenes.put("gnu", Files.createDirectory(base.resolve("gnu")));
            for (String engine : ENGINES) {
                scenes.put(engine, Files.createDirectory(base.resolve(engine)));
            }
            Map<String, Set<String>> before = new TreeMap<>();
            // The scenes are clones of one built from the row's script (cp -a as root keeps times, owners, links,
            // xattrs, holes, FIFOs, devices; it reads the template, never a scene, so no scene's access times move):
            // one process each instead of a dozen. A scene with a mount, or whose script names its own absolute path
            // (links into a template would lead out of the scene), is built on its own instead.
            boolean clone = !row.mounts && !(row.setup + row.post).contains("$PWD") && !(row.setup + row.post).contains("pwd");
            Path template = clone ? Files.createDirectory(base.resolve("template")) : null;
            Map<String, FileTime[]> times = null;
            if (template != null) {
                build(row, template);
                times = times(template);
            }
            for (var scene : scenes.entrySet()) {
                if (template == null) {
                    build(row, scene.getValue());
                } else {
                    Cli.Result r = Cli.runScript(scene.getValue(), Map.of(), null, "exec \"$@\"",
                            List.of("/usr/bin/cp", "-a", template + "/.", "."), 60);
                    if (r.exit() != 0) {
                        throw new IllegalStateException("cloning the scene failed (a bug of the test): " + r);
                    }
                    // cp -a read the template, which moved its access times for the next clone: each clone gets the times as built.
                    setTimes(scene.getValue(), times);
                }
                before.put(scene.getKey(), entries(scene.getValue()));
            }
            List<String> gnuCommand = new ArrayList<>(user);
            gnuCommand.add("cp");
            gnuCommand.addAll(row.args);
            Map<String, String> env = new TreeMap<>(row.env);
            env.put("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
            Run gnu = new Run(Cli.runScript(scenes.get("gnu"), env, row.stdin, row.body, gnuCommand, TIMEOUT, row.waits ? 0 : IDLE), null);
            Map<String, Run> cpx = new LinkedHashMap<>();
            for (String engine : ENGINES) {
                List<String> command = new ArrayList<>(user);
                command.addAll(Launch.cpx());
                command.addAll(row.args);
                Map<String, String> cpxEnv = new TreeMap<>(env);
                cpxEnv.put("XDG_CONFIG_HOME", config(engine).toString());
                cpx.put(engine, new Run(Cli.runScript(scenes.get(engine), cpxEnv, row.stdin, row.body, command, TIMEOUT, row.waits ? 0 : IDLE), null));
            }
            Detail[] details = details(row);
            Instant fresh = Instant.now().minusSeconds(600);
            gnu = new Run(normalize(gnu.result(), base), describe(scenes.get("gnu"), base, details, fresh, before.get("gnu")));
            for (String engine : ENGINES) {
                Run r = cpx.get(engine);
                cpx.put(engine, new Run(normalize(r.result(), base), describe(scenes.get(engine), base, details, fresh, before.get(engine))));
            }
            return new Outcome(row, script, gnu, cpx);
        } finally {
            unmountUnder(base);
            if (!KEEP) {
                removeTree(base);
            }
        }
    }

    /** Builds one scene: the setup script, its Java step, the fixed times, the owner, the post script and its Java step. */
    private static void build(Row row, Path scene) throws Exception {
        String prelude = prelude(row);
        List<String> parts = row.javaSetup == null ? List.of(row.setup + "\n" + finish(row)) : List.of(row.setup, finish(row));
        for (int i = 0; i < parts.size(); i++) {
            Cli.Result r = Cli.runScript(scene, Map.of(), null, prelude + parts.get(i), List.of());
            // Scenes are made by root (owners, devices, attributes only root may set): as another user, one may not be made.
            assumeTrue(r.exit() == 0 || IS_ROOT, () -> "the scene's setup needs root, and the tests do not run as root: " + r.err().strip());
            if (r.exit() != 0) {
                throw new IllegalStateException("the scene's setup failed (a bug of the test): " + r + "\nscript:\n" + parts.get(i));
            }
            Row.Hook hook = i == parts.size() - 1 ? row.javaPost : row.javaSetup;
            if (hook != null) {
                hook.on(scene);
            }
        }
    }

    /** Shell functions and variables every setup may use. */
    private static String prelude(Row row) {
        return "set -e\numask 022\n"
                + "U=" + Unprivileged.uid() + " G=" + Unprivileged.gid() + "\n"
                + "mnt() { mkdir -p \"$1\"; mount -t tmpfs -o size=4m cpx-test \"$1\"; }\n"
                + "old() { touch -h -d @1262304000.5 \"$@\"; }\n"
                + "new() { touch -h -d @1700000000.75 \"$@\"; }\n";
    }

    /** After the setup: the fixed times, the scene to the user (unprivileged rows), the post script. */
    private static String finish(Row row) {
        StringBuilder sb = new StringBuilder();
        sb.append("find . -exec touch -h -m -d ").append(MTIME).append(" {} + -exec touch -h -a -d ").append(ATIME).append(" {} +\n");
        if (row.unprivileged) {
            sb.append("chown -R -h \"$U:$G\" .\n");
        }
        sb.append(row.post.strip()).append('\n');
        return sb.toString();
    }

    /** The whole setup, as the failure message shows it. */
    static String setupScript(Row row) {
        return prelude(row) + row.setup.strip() + "\n" + (row.javaSetup != null ? "# (then a Java step: see the test)\n" : "")
                + finish(row) + (row.javaPost != null ? "# (then a Java step: see the test)\n" : "");
    }

    private static Detail[] details(Row row) {
        EnumSet<Detail> d = EnumSet.of(Detail.MODE, Detail.OWNER, Detail.LINKS, Detail.XATTR, Detail.MTIME);
        if (row.preservesTimes() && !row.noAtime) {
            d.add(Detail.ATIME);
        }
        d.addAll(row.extra);
        return d.toArray(Detail[]::new);
    }

    private static final Pattern TIME = Pattern.compile("\\b(mtime|atime)=(\\S+)");
    private static final Pattern ATIME_WORD = Pattern.compile(" atime=\\S+");
    private static final Pattern MTIME_WORD = Pattern.compile(" mtime=\\S+");

    /**
     * The scene as {@link Trees#describe} sees it, times set by the run itself shown as {@code fresh},
     * paths relative. Access times only of what the run made: a source's moves whenever a tool
     * reads it, which says nothing about the copy.
     */
    private static Map<String, String> describe(Path scene, Path base, Detail[] details, Instant fresh, Set<String> before) {
        Map<String, String> tree = Trees.describe(scene, details);
        Map<String, String> out = new TreeMap<>();
        tree.forEach((k, value) -> {
            String v = before.contains(k) ? ATIME_WORD.matcher(value).replaceAll("") : value;
            Matcher m = TIME.matcher(v);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                Instant t = Instant.parse(m.group(2));
                m.appendReplacement(sb, Matcher.quoteReplacement(m.group(1) + "=" + (t.isAfter(fresh) ? "fresh" : m.group(2))));
            }
            m.appendTail(sb);
            out.put(k, relative(sb.toString(), scene, base));
        });
        return out;
    }

    private static Cli.Result normalize(Cli.Result r, Path base) {
        return new Cli.Result(r.exit(), relative(r.out(), null, base), relative(r.err(), null, base));
    }

    /** Absolute paths into a scene written as {@code <scene>}, so the twin scenes compare. */
    private static String relative(String text, Path scene, Path base) {
        for (String name : List.of("gnu", "native", "nio")) {
            text = text.replace(base.resolve(name).toString(), "<scene>");
        }
        return text;
    }

    /** Access and modification times of every entry, by relative path, read without following links. */
    private static Map<String, FileTime[]> times(Path scene) throws IOException {
        Map<String, FileTime[]> out = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(scene)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                var a = Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                out.put(scene.relativize(p).toString(), new FileTime[] {a.lastAccessTime(), a.lastModifiedTime()});
            }
        }
        return out;
    }

    private static void setTimes(Path scene, Map<String, FileTime[]> times) throws IOException {
        var extras = EngineRegistry.discoverExtras();
        for (var e : times.entrySet()) {
            Path p = scene.resolve(e.getKey());
            extras.setTimes(p, e.getValue()[0], e.getValue()[1], false);
        }
    }

    /** The relative paths of a scene, listed without reading any file (reading would move access times). */
    private static Set<String> entries(Path scene) throws IOException {
        try (Stream<Path> walk = Files.walk(scene)) {
            return walk.map(p -> {
                String key = dev.cpx.spi.support.PathBytes.decode(dev.cpx.spi.support.PathBytes.of(scene.relativize(p)));
                return key.isEmpty() ? "." : key;
            }).collect(Collectors.toSet());
        }
    }

    /** Compares one engine's run with GNU's: a failure lists every part that differs. */
    static void check(Row row, String engine, Outcome o) {
        Run g = o.gnu();
        Run c = o.cpx().get(engine);
        List<String> kinds = new ArrayList<>();
        StringBuilder diff = new StringBuilder();
        if (g.result().exit() != c.result().exit()) {
            kinds.add("exit");
            diff.append("exit:   GNU ").append(g.result().exit()).append(", cpx ").append(c.result().exit()).append('\n');
        }
        compareText("stdout", g.result().out(), c.result().out(), row.orderFree(), kinds, diff);
        compareText("stderr", g.result().err(), c.result().err(), row.orderFree(), kinds, diff);
        Map<String, String> gnuTree = new java.util.TreeMap<>(g.tree());
        for (String path : row.gnuLeavesEmpty) {
            // A documented difference (README): GNU leaves an empty file, cpx nothing. Anything else still counts.
            String left = gnuTree.get(path);
            if (left != null && left.startsWith("file 0 ") && !c.tree().containsKey(path)) {
                gnuTree.remove(path);
            }
        }
        Map<String, String> cpxTree = new java.util.TreeMap<>(c.tree());
        gnuTree.keySet().removeAll(row.notCompared);
        cpxTree.keySet().removeAll(row.notCompared);
        for (String path : row.mtimeNotCompared) {
            gnuTree.computeIfPresent(path, (k, v) -> MTIME_WORD.matcher(v).replaceAll(""));
            cpxTree.computeIfPresent(path, (k, v) -> MTIME_WORD.matcher(v).replaceAll(""));
        }
        if (row.treeNotComparedUnder != null) {
            String under = row.treeNotComparedUnder + "/";
            gnuTree.keySet().removeIf(k -> k.startsWith(under));
            cpxTree.keySet().removeIf(k -> k.startsWith(under));
        }
        String treeDiff = treeDiff(gnuTree, cpxTree);
        if (!treeDiff.isEmpty()) {
            kinds.add("tree");
            diff.append("tree:\n").append(treeDiff);
        }
        if (kinds.isEmpty()) {
            return;
        }
        String message = row.name(engine) + ": GNU cp and cpx differ in " + String.join(", ", kinds) + "\n"
                + "command: " + row.reproduction() + "\n" + diff
                + "GNU cp: exit " + g.result().exit() + indent("stdout", g.result().out()) + indent("stderr", g.result().err())
                + "\ncpx:    exit " + c.result().exit() + indent("stdout", c.result().out()) + indent("stderr", c.result().err())
                + "\nscene (bash, run as root in an empty directory):\n" + o.setupScript();
        FailureLog.record(row, engine, kinds, g, c, treeDiff);
        org.junit.jupiter.api.Assertions.fail(message);
    }

    private static String indent(String what, String text) {
        if (text.isEmpty()) {
            return "";
        }
        return "\n  " + what + ": " + text.stripTrailing().replace("\n", "\n          ");
    }

    private static void compareText(String what, String gnu, String cpx, boolean orderFree, List<String> kinds, StringBuilder diff) {
        if (gnu.equals(cpx) || (orderFree && sortedLines(gnu).equals(sortedLines(cpx)))) {
            return;
        }
        kinds.add(what);
        List<String> g = lines(gnu);
        List<String> c = lines(cpx);
        diff.append(what).append(":\n");
        if (new TreeSet<>(g).equals(new TreeSet<>(c)) && !orderFree) {
            diff.append("  the same lines in another order (one entry: the order must be GNU's)\n");
        }
        for (String l : g) {
            if (!c.contains(l)) {
                diff.append("  - GNU: ").append(l).append('\n');
            }
        }
        for (String l : c) {
            if (!g.contains(l)) {
                diff.append("  + cpx: ").append(l).append('\n');
            }
        }
        if (!gnu.isEmpty() && !cpx.isEmpty() && gnu.endsWith("\n") != cpx.endsWith("\n")) {
            diff.append("  (one ends with a newline, the other does not)\n");
        }
    }

    private static List<String> lines(String text) {
        return text.isEmpty() ? List.of() : Arrays.asList(text.split("\n", -1));
    }

    private static List<String> sortedLines(String text) {
        return lines(text).stream().sorted().collect(Collectors.toList());
    }

    /** The entries whose descriptions differ, GNU's then cpx's. */
    static String treeDiff(Map<String, String> gnu, Map<String, String> cpx) {
        StringBuilder sb = new StringBuilder();
        TreeSet<String> keys = new TreeSet<>(gnu.keySet());
        keys.addAll(cpx.keySet());
        for (String k : keys) {
            String a = gnu.get(k);
            String b = cpx.get(k);
            if (!Objects.equals(a, b)) {
                sb.append("  ").append(k).append("\n    GNU: ").append(a == null ? "(absent)" : a)
                        .append("\n    cpx: ").append(b == null ? "(absent)" : b).append('\n');
            }
        }
        return sb.toString();
    }

    /** Unmounts whatever a scene mounted under {@code base}, deepest first. */
    private static void unmountUnder(Path base) {
        try {
            List<String> points = new ArrayList<>();
            for (String line : Files.readAllLines(Path.of("/proc/self/mounts"), StandardCharsets.UTF_8)) {
                String[] f = line.split(" ");
                if (f.length > 1) {
                    String point = unescape(f[1]);
                    if (point.startsWith(base + "/")) {
                        points.add(point);
                    }
                }
            }
            points.sort((a, b) -> b.length() - a.length());
            for (String p : points) {
                Cli.Result r = Cli.runScript(Path.of("/"), Map.of(), null, "exec \"$@\"", List.of("umount", p));
                if (r.exit() != 0) {
                    Cli.runScript(Path.of("/"), Map.of(), null, "exec \"$@\"", List.of("umount", "-l", p));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A mount point as /proc/self/mounts writes it: space, tab, newline and backslash in octal. */
    private static String unescape(String s) {
        Matcher m = Pattern.compile("\\\\([0-7]{3})").matcher(s);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(String.valueOf((char) Integer.parseInt(m.group(1), 8))));
        }
        return m.appendTail(sb).toString();
    }

    private static void removeTree(Path p) {
        try {
            // Scenes hold unreadable directories, immutable-looking modes and loops: rm -rf as root copes.
            Cli.runScript(Path.of("/"), Map.of(), null, "exec \"$@\"", List.of("rm", "-rf", "--one-file-system", p.toString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
