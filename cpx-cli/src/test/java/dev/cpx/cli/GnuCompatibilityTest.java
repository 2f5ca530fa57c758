package dev.cpx.cli;

import static dev.cpx.cli.Scenes.file;
import static dev.cpx.cli.Scenes.fixTimes;
import static dev.cpx.cli.Scenes.mode;
import static dev.cpx.cli.Scenes.standardTree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.api.EngineRegistry;
import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import dev.cpx.testing.Unprivileged;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The differential suite: each scenario builds the same scene twice, runs GNU cp (as {@code cp}) in
 * one and cpx (named {@code cp}, with each engine) in the other, and compares everything GNU
 * defines: the resulting trees (type, content, mode, owner, nanosecond times, inode sharing and link
 * counts, symlink targets, xattrs, holes), the exit status, and what was printed on stdout and
 * stderr (sorted: cpx's parallel workers print in another order). Scenarios needing an unprivileged
 * user run both tools under one, created by the test with {@code setpriv}.
 */
class GnuCompatibilityTest {

    @FunctionalInterface
    interface Setup {
        void build(Path scene) throws Exception;
    }

    /** One case: how to build the scene, the arguments, what to compare, how to run. */
    record Scenario(String name, Setup setup, List<String> args, Detail[] details, String stdin, boolean asUser,
            Map<String, String> env, Difference difference) {

        Scenario details(Detail... d) {
            return new Scenario(name, setup, args, d, stdin, asUser, env, difference);
        }

        Scenario stdin(String in) {
            return new Scenario(name, setup, args, details, in, asUser, env, difference);
        }

        Scenario unprivileged() {
            return new Scenario(name, setup, args, details, stdin, true, env, difference);
        }

        Scenario env(String key, String value) {
            Map<String, String> e = new HashMap<>(env);
            e.put(key, value);
            return new Scenario(name, setup, args, details, stdin, asUser, e, difference);
        }

        /** A deliberate difference from GNU cp (listed in README's compatibility table), checked its own way. */
        Scenario differs(Difference d) {
            return new Scenario(name, setup, args, details, stdin, asUser, env, d);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Scenario s(String name, Setup setup, String... args) {
        return new Scenario(name, setup, List.of(args), new Detail[] {Detail.MODE, Detail.LINKS}, null, false, Map.of(), null);
    }

    /** Where cpx deliberately differs: GNU's and cpx's results are each checked on their own. */
    interface Difference {
        void check(Cli.Result gnu, Path gnuScene, Cli.Result cpx, Path cpxScene) throws Exception;
    }

    /**
     * A clone that fails leaves nothing behind in cpx; GNU cp leaves the empty file it had created.
     * Where the file system clones (XFS, btrfs; CI's ext4 does not), nothing fails and the copies match.
     */
    private static final Difference NOTHING_LEFT_BY_A_FAILED_CLONE = (gnu, gnuScene, cpx, cpxScene) -> {
        assertEquals(gnu.exit(), cpx.exit(), cpx::toString);
        assertEquals(gnu.err(), cpx.err());
        if (gnu.exit() == 0) {
            assertEquals(Files.readString(gnuScene.resolve("c")), Files.readString(cpxScene.resolve("c")));
            return;
        }
        assertEquals(0, Files.size(gnuScene.resolve("c")), "GNU leaves an empty file");
        assertEquals(false, Files.exists(cpxScene.resolve("c")), "cpx leaves no file that looks like a copy");
    };

    private static final Detail[] ALL = {Detail.MODE, Detail.MTIME, Detail.ATIME, Detail.OWNER, Detail.LINKS, Detail.XATTR};

    /**
     * Without --preserve=links, each name of a hard-linked source is copied apart, and reading the
     * first moves the access time the others are then copied with, in whatever order each tool reads
     * them: access times are compared where no hard links are copied apart.
     */
    private static final Detail[] ALL_BUT_ATIME = {Detail.MODE, Detail.MTIME, Detail.OWNER, Detail.LINKS, Detail.XATTR};

    private static final Setup TREE = Scenes::standardTree;

    private static final Setup FILES = scene -> {
        file(scene.resolve("a"), "new a\n");
        file(scene.resolve("b"), "old b, longer\n");
        Files.createDirectories(scene.resolve("dir"));
        file(scene.resolve("dir/a"), "old a in dir\n");
        fixTimes(scene);
    };

    static List<Scenario> scenarios() {
        List<Scenario> all = new ArrayList<>();
        // Plain and preserving copies of the standard tree.
        all.add(s("recursive", TREE, "-r", "src", "dst"));
        all.add(s("recursive verbose", TREE, "-rv", "src", "dst"));
        all.add(s("archive", TREE, "-a", "src", "dst").details(ALL));
        all.add(s("archive verbose", TREE, "-av", "src", "dst").details(ALL));
        all.add(s("-p files", TREE, "-p", "src/small.txt", "src/suid", "src/run.sh", "src/a").details(ALL));
        all.add(s("-rp", TREE, "-rp", "src", "dst").details(ALL_BUT_ATIME));
        all.add(s("--preserve=mode", TREE, "-r", "--preserve=mode", "src", "dst"));
        all.add(s("--preserve=timestamps", TREE, "-r", "--preserve=timestamps", "src", "dst")
                .details(Detail.MODE, Detail.MTIME));
        all.add(s("--preserve=links", TREE, "-r", "--preserve=links", "src", "dst"));
        all.add(s("--preserve=all", TREE, "-r", "--preserve=all", "src", "dst").details(ALL));
        all.add(s("--preserve bare", TREE, "-r", "--preserve", "src", "dst").details(ALL_BUT_ATIME));
        all.add(s("--no-preserve=mode", TREE, "-a", "--no-preserve=mode", "src", "dst").details(ALL));
        all.add(s("--no-preserve=timestamps,links", TREE, "-a", "--no-preserve=timestamps,links", "src", "dst"));
        all.add(s("-d", TREE, "-rd", "src", "dst"));
        all.add(s("xattrs", scene -> {
            standardTree(scene);
            var extras = EngineRegistry.discoverExtras();
            extras.setXattr(scene.resolve("src/small.txt"), "user.colour", "blue".getBytes(StandardCharsets.UTF_8), true);
            extras.setXattr(scene.resolve("src/a"), "user.dir", new byte[] {0, 1, 2}, true);
            if (setfacl(scene, "-m", "u:4242:r,g:4343:rw", "src/private")) {
                setfacl(scene, "-d", "-m", "u:4242:rx", "src/a");
            }
        }, "-a", "src", "dst").details(ALL));
        all.add(s("ACLs with -p", scene -> {
            standardTree(scene);
            setfacl(scene, "-m", "u:4242:r,g:4343:rw", "src/private");
        }, "-p", "src/private", "copy").details(ALL));
        all.add(s("--preserve=xattr", scene -> {
            standardTree(scene);
            EngineRegistry.discoverExtras().setXattr(scene.resolve("src/small.txt"), "user.k", new byte[] {9}, true);
        }, "-r", "--preserve=xattr", "src", "dst").details(Detail.MODE, Detail.XATTR));
        all.add(s("--preserve=context", TREE, "-r", "--preserve=context", "src", "dst"));
        all.add(s("-Z", FILES, "-Z", "a", "z"));
        all.add(s("--context=CTX", FILES, "--context=system_u:object_r:tmp_t:s0", "a", "z"));
        // Symbolic links: -P, -L, -H and the last one wins.
        all.add(s("-rL", scene -> {
            standardTree(scene);
            Files.delete(scene.resolve("src/dangling"));
        }, "-rL", "src", "dst"));
        all.add(s("-rL dangling", TREE, "-rL", "src", "dst"));
        all.add(s("-rH", scene -> {
            standardTree(scene);
            Files.createSymbolicLink(scene.resolve("srclink"), Path.of("src"));
        }, "-rH", "srclink", "dst"));
        all.add(s("-r link operand", scene -> {
            standardTree(scene);
            Files.createSymbolicLink(scene.resolve("srclink"), Path.of("src"));
        }, "-r", "srclink", "dst"));
        all.add(s("-r link operand trailing slash", scene -> {
            standardTree(scene);
            Files.createSymbolicLink(scene.resolve("srclink"), Path.of("src"));
        }, "-r", "srclink/", "dst"));
        all.add(s("--strip-trailing-slashes", scene -> {
            standardTree(scene);
            Files.createSymbolicLink(scene.resolve("srclink"), Path.of("src"));
        }, "-r", "--strip-trailing-slashes", "srclink/", "dst"));
        all.add(s("-L then -P", TREE, "-r", "-L", "-P", "src", "dst"));
        all.add(s("-P then -L", scene -> {
            standardTree(scene);
            Files.delete(scene.resolve("src/dangling"));
        }, "-r", "-P", "-L", "src", "dst"));
        all.add(s("file link operand", TREE, "src/rel-link", "copy"));
        all.add(s("file link operand -P", TREE, "-P", "src/rel-link", "copy"));
        // Existing destinations: -n, -u, -i, -f, --remove-destination.
        all.add(s("overwrite", FILES, "a", "b"));
        all.add(s("-n", FILES, "-n", "a", "b"));
        all.add(s("-nv", FILES, "-nv", "a", "b"));
        all.add(s("-u older destination", scene -> {
            FILES.build(scene);
            Files.setLastModifiedTime(scene.resolve("b"), java.nio.file.attribute.FileTime.fromMillis(0));
        }, "-uv", "a", "b"));
        all.add(s("-u newer destination", FILES, "-uv", "a", "b"));
        all.add(s("-i yes", FILES, "-i", "a", "b").stdin("y\n"));
        all.add(s("-i no", FILES, "-i", "a", "b").stdin("n\n"));
        all.add(s("-n then -i", FILES, "-n", "-i", "a", "b").stdin("y\n"));
        all.add(s("--remove-destination", scene -> {
            FILES.build(scene);
            Files.createLink(scene.resolve("b-link"), scene.resolve("b"));
        }, "-v", "--remove-destination", "a", "b"));
        all.add(s("overwrite keeps hard links", scene -> {
            FILES.build(scene);
            Files.createLink(scene.resolve("b-link"), scene.resolve("b"));
        }, "a", "b"));
        all.add(s("merge into existing tree", scene -> {
            standardTree(scene);
            file(scene.resolve("dst/small.txt"), "other content\n");
            file(scene.resolve("dst/extra"), "extra\n");
            Files.createSymbolicLink(scene.resolve("dst/rel-link"), Path.of("elsewhere"));
        }, "-rT", "src", "dst"));
        // Backups.
        all.add(s("-b", FILES, "-v", "-b", "a", "b"));
        all.add(s("--backup=numbered", scene -> {
            FILES.build(scene);
            file(scene.resolve("b.~1~"), "one");
            file(scene.resolve("b.~7~"), "seven");
        }, "-v", "--backup=numbered", "a", "b"));
        all.add(s("--backup=existing without numbered", FILES, "--backup=existing", "a", "b"));
        all.add(s("--backup=existing with numbered", scene -> {
            FILES.build(scene);
            file(scene.resolve("b.~2~"), "two");
        }, "--backup=existing", "a", "b"));
        all.add(s("--backup=none", FILES, "--backup=none", "a", "b"));
        all.add(s("--backup=t", FILES, "--backup=t", "a", "b"));
        all.add(s("--backup=nu", FILES, "--backup=nu", "a", "b"));
        all.add(s("-S suffix", FILES, "-S", ".bak", "a", "b"));
        all.add(s("VERSION_CONTROL", FILES, "-b", "a", "b").env("VERSION_CONTROL", "numbered"));
        all.add(s("SIMPLE_BACKUP_SUFFIX", FILES, "-b", "a", "b").env("SIMPLE_BACKUP_SUFFIX", ".orig"));
        all.add(s("backup of a tree", scene -> {
            standardTree(scene);
            file(scene.resolve("dst/small.txt"), "old\n");
        }, "-rT", "--backup=simple", "src", "dst"));
        all.add(s("backup would destroy source", scene -> {
            FILES.build(scene);
            file(scene.resolve("a~"), "source named like a backup\n");
        }, "--backup=simple", "a~", "a"));
        all.add(s("force backup onto itself", FILES, "-f", "--backup=simple", "a", "a"));
        all.add(s("-b with -n", FILES, "-b", "-n", "a", "b"));
        // Links instead of copies.
        all.add(s("-l", FILES, "-l", "a", "c"));
        all.add(s("-l existing", FILES, "-l", "a", "b"));
        all.add(s("-lf existing", FILES, "-lf", "a", "b"));
        all.add(s("-rl", TREE, "-rl", "src", "dst"));
        all.add(s("-s relative in cwd", FILES, "-s", "a", "c"));
        all.add(s("-s relative elsewhere", FILES, "-s", "a", "dir/c"));
        all.add(s("-s existing", FILES, "-s", "a", "b"));
        all.add(s("-l and -s", FILES, "-l", "-s", "a", "c"));
        // Targets.
        all.add(s("-t", TREE, "-t", "dst-dir", "src/small.txt", "src/a").details(Detail.MODE));
        all.add(s("-t recursive", scene -> {
            standardTree(scene);
            Files.createDirectories(scene.resolve("dst-dir"));
        }, "-r", "-t", "dst-dir", "src/a", "src/small.txt"));
        all.add(s("-T file onto dir", FILES, "-T", "a", "dir"));
        all.add(s("-T dir onto file", TREE, "-rT", "src", "src/small.txt"));
        all.add(s("--parents", scene -> {
            standardTree(scene);
            Files.createDirectories(scene.resolve("t"));
        }, "-v", "--parents", "src/a/b/c/deep.txt", "src/small.txt", "t"));
        all.add(s("--parents -rp", scene -> {
            standardTree(scene);
            Files.createDirectories(scene.resolve("t"));
        }, "-rpv", "--parents", "src/a/b", "t").details(ALL));
        all.add(s("--parents without a directory", TREE, "--parents", "src/small.txt", "nodir"));
        all.add(s("into existing directory", scene -> {
            standardTree(scene);
            Files.createDirectories(scene.resolve("dst"));
        }, "-r", "src", "dst"));
        all.add(s("contents with /.", scene -> {
            standardTree(scene);
            Files.createDirectories(scene.resolve("dst"));
        }, "-r", "src/.", "dst"));
        all.add(s("several into a file", FILES, "a", "b", "dir/a"));
        all.add(s("several into a missing directory", FILES, "a", "b", "nodir"));
        all.add(s("file onto missing directory", FILES, "a", "nodir/"));
        all.add(s("file operand with slash", FILES, "a/", "x"));
        all.add(s("new directory with slash", TREE, "-r", "src", "dst/"));
        // Refusals.
        all.add(s("same file", FILES, "a", "a"));
        all.add(s("same file through a hard link", scene -> {
            FILES.build(scene);
            Files.createLink(scene.resolve("a-link"), scene.resolve("a"));
        }, "a", "a-link"));
        all.add(s("same file through a symlink", scene -> {
            FILES.build(scene);
            Files.createSymbolicLink(scene.resolve("a-sym"), Path.of("a"));
        }, "a", "a-sym"));
        all.add(s("dangling destination symlink", scene -> {
            FILES.build(scene);
            Files.createSymbolicLink(scene.resolve("dangle"), Path.of("nowhere"));
        }, "a", "dangle"));
        all.add(s("dangling destination symlink -f", scene -> {
            FILES.build(scene);
            Files.createSymbolicLink(scene.resolve("dangle"), Path.of("nowhere"));
        }, "-f", "a", "dangle"));
        all.add(s("dangling destination symlink --remove-destination", scene -> {
            FILES.build(scene);
            Files.createSymbolicLink(scene.resolve("dangle"), Path.of("nowhere"));
        }, "--remove-destination", "a", "dangle"));
        all.add(s("non-directory onto directory", FILES, "a", "dir"));
        all.add(s("directory onto non-directory", scene -> {
            standardTree(scene);
            file(scene.resolve("dst/a"), "a file where a directory goes\n");
        }, "-rT", "src", "dst"));
        all.add(s("just-created", scene -> {
            FILES.build(scene);
            file(scene.resolve("other/a"), "other a\n");
            Files.createDirectories(scene.resolve("t"));
        }, "a", "other/a", "t"));
        all.add(s("source twice", FILES, "a", "./a", "dir"));
        all.add(s("directory twice", TREE, "-r", "src", "src", "dir2"));
        all.add(s("missing operand among others", FILES, "a", "missing", "b", "dir"));
        all.add(s("directory without -r", TREE, "src", "src/small.txt", "x"));
        // Special files, sparse files, reflinks, attributes only.
        all.add(s("special files recursive", scene -> {
            standardTree(scene);
            var extras = EngineRegistry.discoverExtras();
            extras.makeNode(scene.resolve("src/null-device"), 0020666, (1L << 8) | 3);
            extras.makeNode(scene.resolve("src/block-device"), 0060660, (7L << 8) | 200);
            fixTimes(scene.resolve("src"));
        }, "-a", "src", "dst").details(ALL));
        all.add(s("--copy-contents", scene -> {
            Files.createDirectories(scene.resolve("src"));
            EngineRegistry.discoverExtras().makeNode(scene.resolve("src/null-device"), 0020666, (1L << 8) | 3);
            file(scene.resolve("src/f"), "f");
        }, "-r", "--copy-contents", "src", "dst"));
        all.add(s("special file without -r", scene -> {
            EngineRegistry.discoverExtras().makeNode(scene.resolve("null-device"), 0020666, (1L << 8) | 3);
        }, "null-device", "copy"));
        all.add(s("--sparse=auto", scene -> Scenes.sparseFile(scene.resolve("sparse")), "sparse", "copy")
                .details(Detail.MODE, Detail.SPARSE));
        all.add(s("--sparse=never", scene -> Scenes.sparseFile(scene.resolve("sparse")), "--sparse=never", "sparse", "copy")
                .details(Detail.MODE, Detail.SPARSE));
        // In a tree cpx makes, files below 1 MiB take its shortest path, which tells holes from the first stat.
        Setup smallSparseInATree = scene -> {
            Scenes.sparseFile(scene.resolve("src/sparse"), 512 << 10);
            Files.write(scene.resolve("src/dense"), Trees.randomBytes(40 << 10, 5));
        };
        all.add(s("-r, a small sparse file in the tree", smallSparseInATree, "-r", "src", "dst").details(Detail.MODE, Detail.SPARSE));
        all.add(s("-r --sparse=never, a small sparse file in the tree", smallSparseInATree, "-r", "--sparse=never", "src", "dst")
                .details(Detail.MODE, Detail.SPARSE));
        all.add(s("--sparse=always", scene -> Files.write(scene.resolve("zeros"), new byte[1 << 20]),
                "--sparse=always", "zeros", "copy").details(Detail.MODE, Detail.SPARSE));
        all.add(s("--sparse=bogus", FILES, "--sparse=bogus", "a", "c"));
        all.add(s("--backup=bogus", FILES, "--backup=bogus", "a", "b"));
        // Values by unique prefix, as GNU's argmatch; an ambiguous one lists the valid values.
        all.add(s("--sparse=al", FILES, "--sparse=al", "a", "c"));
        all.add(s("--sparse= (ambiguous)", FILES, "--sparse=", "a", "c"));
        all.add(s("--reflink=nev", FILES, "--reflink=nev", "a", "c"));
        all.add(s("--reflink=a (ambiguous)", FILES, "--reflink=a", "a", "c"));
        all.add(s("--backup=nu", FILES, "--backup=nu", "a", "b"));
        all.add(s("--backup=n (ambiguous)", FILES, "--backup=n", "a", "b"));
        all.add(s("--preserve=mo,ti,l", FILES, "--preserve=mo,ti,l", "a", "c"));
        all.add(s("--no-preserve=mo", FILES, "-a", "--no-preserve=mo", "a", "c"));
        all.add(s("--preserve=mo,,ti (ambiguous)", FILES, "--preserve=mo,,ti", "a", "c"));
        all.add(s("--reflink=always", FILES, "--reflink=always", "a", "c").differs(NOTHING_LEFT_BY_A_FAILED_CLONE));
        all.add(s("--reflink=never", FILES, "--reflink=never", "a", "c"));
        all.add(s("--reflink bare", FILES, "--reflink", "a", "c").differs(NOTHING_LEFT_BY_A_FAILED_CLONE));
        all.add(s("--attributes-only new", TREE, "-p", "--attributes-only", "src/run.sh", "copy").details(ALL));
        all.add(s("--attributes-only existing", FILES, "-p", "--attributes-only", "a", "b").details(ALL));
        // As an unprivileged user.
        all.add(s("user: -p on a root file", scene -> {
            file(scene.resolve("rootfile"), "r", 0644);
            fixTimes(scene);
            Unprivileged.own(scene);
            Files.setAttribute(scene.resolve("rootfile"), "unix:uid", 0);
        }, "-p", "rootfile", "copy").unprivileged().details(ALL));
        all.add(s("user: --preserve=ownership on a root file", scene -> {
            file(scene.resolve("rootfile"), "r", 0644);
            Unprivileged.own(scene);
            Files.setAttribute(scene.resolve("rootfile"), "unix:uid", 0);
            Files.setAttribute(scene.resolve("rootfile"), "unix:gid", 0);
        }, "--preserve=ownership", "rootfile", "copy").unprivileged().details(Detail.MODE, Detail.OWNER));
        all.add(s("user: unreadable file", scene -> {
            standardTree(scene);
            Unprivileged.own(scene);
            mode(scene.resolve("src/private"), 0000);
        }, "-r", "src", "dst").unprivileged());
        all.add(s("user: unreadable directory", scene -> {
            standardTree(scene);
            Unprivileged.own(scene);
            mode(scene.resolve("src/a/b"), 0000);
        }, "-r", "src", "dst").unprivileged().details(Detail.MODE));
        all.add(s("user: unwritable destination directory", scene -> {
            standardTree(scene);
            Files.createDirectories(scene.resolve("locked"));
            Unprivileged.own(scene);
            mode(scene.resolve("locked"), 0555);
        }, "-r", "src", "locked").unprivileged());
        all.add(s("user: unwritable destination file", scene -> {
            FILES.build(scene);
            Unprivileged.own(scene);
            mode(scene.resolve("b"), 0444);
        }, "a", "b").unprivileged());
        all.add(s("user: unwritable destination file -f", scene -> {
            FILES.build(scene);
            Unprivileged.own(scene);
            mode(scene.resolve("b"), 0444);
        }, "-f", "a", "b").unprivileged());
        all.add(s("user: read-only source directory", scene -> {
            standardTree(scene);
            Unprivileged.own(scene);
        }, "-a", "src", "dst").unprivileged().details(ALL));
        return all;
    }

    /** Sets an ACL with setfacl where it is installed (Debian package acl); false where it is not. */
    static boolean setfacl(Path scene, String... args) throws Exception {
        if (!Files.isExecutable(Path.of("/usr/bin/setfacl"))) {
            return false;
        }
        List<String> cmd = new ArrayList<>(List.of("setfacl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(scene.toFile()).inheritIO().start();
        return p.waitFor() == 0;
    }

    static Stream<Arguments> cases() {
        return scenarios().stream().flatMap(s -> Stream.of(Arguments.of(s, "native"), Arguments.of(s, "nio")));
    }

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} [{1}]")
    @MethodSource("cases")
    void behavesLikeGnuCp(Scenario scenario, String engine) throws Exception {
        assumeTrue(Files.isExecutable(Cli.GNU_CP), "GNU cp is not installed at /usr/bin/cp: differential tests skipped");
        Files.setAttribute(dir, "unix:mode", 0755);
        Path gnuScene = Files.createDirectory(dir.resolve("gnu"));
        Path cpxScene = Files.createDirectory(dir.resolve("cpx"));
        try {
            scenario.setup().build(gnuScene);
            scenario.setup().build(cpxScene);
        } catch (java.nio.file.FileSystemException e) {
            // Scenes with devices are made by root: as another user, mknod is not permitted.
            assumeTrue(Unprivileged.isRoot() || !"Operation not permitted".equals(e.getReason()),
                    () -> "the scene's setup needs root, and the tests do not run as root: " + e.getMessage());
            throw e;
        }
        java.util.Set<String> before = entries(gnuScene);
        List<String> user = scenario.asUser() ? Unprivileged.prefix() : List.of();

        List<String> gnuCommand = new ArrayList<>(user);
        gnuCommand.add("cp");
        Cli.Result gnu = Cli.runWithInput(gnuScene, scenario.env(), gnuCommand, scenario.stdin(), scenario.args().toArray(String[]::new));

        List<String> cpxCommand = new ArrayList<>(user);
        cpxCommand.addAll(scenario.asUser() ? Cli.stagedJavaCommand("cp") : Cli.javaCommand("cp"));
        cpxCommand.add("--engine=" + engine);
        Cli.Result cpx = Cli.runWithInput(cpxScene, scenario.env(), cpxCommand, scenario.stdin(), scenario.args().toArray(String[]::new));

        String what = scenario.name() + " " + scenario.args() + "\nGNU: " + gnu + "\ncpx: " + cpx;
        if (scenario.difference() != null) {
            scenario.difference().check(gnu, gnuScene, cpx, cpxScene);
            return;
        }
        assertEquals(gnu.exit(), cpx.exit(), what);
        assertSameLines("stderr", lines(gnu.err(), gnuScene), lines(cpx.err(), cpxScene), what);
        assertSameLines("stdout", lines(gnu.out(), gnuScene), lines(cpx.out(), cpxScene), what);
        assertSameLines("tree", render(describe(gnuScene, scenario.details(), before), gnuScene),
                render(describe(cpxScene, scenario.details(), before), cpxScene), what);
    }

    /** The relative paths of a scene, listed without reading any file (reading would move access times). */
    private static java.util.Set<String> entries(Path scene) throws java.io.IOException {
        try (Stream<Path> walk = Files.walk(scene)) {
            return walk.map(p -> {
                String key = dev.cpx.spi.support.PathBytes.decode(dev.cpx.spi.support.PathBytes.of(scene.relativize(p)));
                return key.isEmpty() ? "." : key;
            }).collect(Collectors.toSet());
        }
    }

    /**
     * The scene as {@link Trees#describe} sees it, but times only of what the copy made: the times
     * of entries that were there before (the source, directories copied into) move with the clock
     * when they are read or written into, differently in each scene.
     */
    private static Map<String, String> describe(Path scene, Detail[] details, java.util.Set<String> before) {
        Detail[] untimed = Arrays.stream(details).filter(d -> d != Detail.MTIME && d != Detail.ATIME).toArray(Detail[]::new);
        Map<String, String> timed = Trees.describe(scene, details);
        Map<String, String> plain = Trees.describe(scene, untimed);
        Map<String, String> out = new java.util.TreeMap<>();
        timed.forEach((k, v) -> out.put(k, before.contains(k) ? plain.get(k) : v));
        return out;
    }

    /** Equal, or a failure that shows only the lines that differ. */
    private static void assertSameLines(String part, String expected, String actual, String what) {
        if (expected.equals(actual)) {
            return;
        }
        List<String> e = List.of(expected.split("\n"));
        List<String> a = List.of(actual.split("\n"));
        StringBuilder diff = new StringBuilder(what).append("\n").append(part).append(" differs:\n");
        e.stream().filter(l -> !a.contains(l)).forEach(l -> diff.append("- GNU: ").append(l).append('\n'));
        a.stream().filter(l -> !e.contains(l)).forEach(l -> diff.append("+ cpx: ").append(l).append('\n'));
        org.junit.jupiter.api.Assertions.fail(diff.toString());
    }

    private static String lines(String text, Path scene) {
        return Arrays.stream(text.replace(scene.toString(), "<scene>").split("\n")).sorted().collect(Collectors.joining("\n"));
    }

    private static String render(Map<String, String> tree, Path scene) {
        return tree.entrySet().stream().map(e -> e.getKey() + " : " + e.getValue())
                .collect(Collectors.joining("\n")).replace(scene.toString(), "<scene>");
    }
}
