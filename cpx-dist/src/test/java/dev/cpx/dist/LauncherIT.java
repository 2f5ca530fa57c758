package dev.cpx.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/cpx from the unpacked tarball, with nothing but a JDK: copies, symbolic links, Java checks, version. */
class LauncherIT {

    @TempDir
    Path dir;

    Path root;
    Path cpx;

    @BeforeEach
    void unpack() throws Exception {
        root = Dist.unpackTar(Files.createDirectories(dir.resolve("opt")));
        cpx = root.resolve("bin/cpx");
    }

    @Test
    void copiesATreeRecursively() throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Dist.Result r = Dist.run(dir, Dist.env(), cpx.toString(), "-r", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        assertEquals("", r.err());
        Trees.assertSameTree(src, dir.resolve("dst"));
    }

    @Test
    void findsJavaOnThePathWithoutJavaHome() throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Map<String, String> env = Dist.env();
        env.put("JAVA_HOME", null);
        env.put("PATH", Dist.JAVA_HOME.resolve("bin") + ":/usr/bin:/bin");
        Dist.Result r = Dist.run(dir, env, cpx.toString(), "-a", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        Trees.assertSameTree(src, dir.resolve("dst"), Detail.MODE, Detail.MTIME);
    }

    @Test
    void worksThroughChainsOfSymbolicLinksAndSpeaksAsCpWhenLinkedAsCp() throws Exception {
        // ~/bin/cp -> ../links/cpx-link -> (absolute) opt/cpx-VERSION/bin/cpx
        Path links = Files.createDirectories(dir.resolve("links"));
        Files.createSymbolicLink(links.resolve("cpx-link"), cpx);
        Path bin = Files.createDirectories(dir.resolve("home/bin"));
        Path cp = Files.createSymbolicLink(bin.resolve("cp"), Path.of("../../links/cpx-link"));
        Path src = Trees.generate(dir.resolve("src"));

        Dist.Result copy = Dist.run(dir, Dist.env(), cp.toString(), "-r", "src", "dst");
        assertEquals(0, copy.exit(), copy::toString);
        Trees.assertSameTree(src, dir.resolve("dst"));

        Dist.Result bad = Dist.run(dir, Dist.env(), cp.toString(), "--bogus", "a", "b");
        assertEquals(1, bad.exit(), bad::toString);
        assertEquals(List.of("cp: unrecognized option '--bogus'", "Try 'cp --help' for more information."), Dist.lines(bad.err()));

        Dist.Result missing = Dist.run(dir, Dist.env(), cp.toString(), "no-such-file", "x");
        assertEquals(1, missing.exit(), missing::toString);
        assertEquals(List.of("cp: cannot stat 'no-such-file': No such file or directory"), Dist.lines(missing.err()));
    }

    @Test
    void aPlansWorkerStartsWithASmallHeapThatTheUserCanOverride() throws Exception {
        // The worker's memory stays flat only with a small heap to start with (docs/cluster.md, "A worker's memory").
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(dir.resolve("src/a"), "a");
        Dist.Result plan = Dist.run(dir, Dist.env(), cpx.toString(), "--plan=plan", "-a", "src", "dst");
        assertEquals(0, plan.exit(), plan::toString);
        Map<String, String> env = Dist.env();
        env.put("CPX_JAVA_OPTS", "-XX:+PrintCommandLineFlags");
        Dist.Result work = Dist.run(dir, env, cpx.toString(), "--work=plan");
        assertEquals(0, work.exit(), work::toString);
        List<String> flags = List.of(work.out().split("\\s+"));
        assertTrue(flags.contains("-XX:InitialHeapSize=10485760") && flags.contains("-XX:NewSize=3145728"), work.out());
        env.put("CPX_JAVA_OPTS", "-XX:+PrintCommandLineFlags -Xmn5m");
        Dist.Result finish = Dist.run(dir, env, cpx.toString(), "--finish=plan");
        assertEquals(0, finish.exit(), finish::toString);
        assertTrue(!finish.out().contains("InitialHeapSize=10485760"), "only a worker starts small: " + finish.out());
        Files.writeString(dir.resolve("src/b"), "b");
        Dist.Result again = Dist.run(dir, Dist.env(), cpx.toString(), "--plan=plan2", "-a", "src", "dst2");
        assertEquals(0, again.exit(), again::toString);
        Dist.Result overridden = Dist.run(dir, env, cpx.toString(), "--work=plan2");
        assertEquals(0, overridden.exit(), overridden::toString);
        assertTrue(List.of(overridden.out().split("\\s+")).contains("-XX:NewSize=5242880"), overridden.out());
        assertEquals(0, Dist.run(dir, Dist.env(), cpx.toString(), "--finish=plan2").exit());
        assertEquals("b", Files.readString(dir.resolve("dst2/b")));
    }

    @Test
    void versionNamesCpxTheEnginesTheJdkAndTheOs() throws Exception {
        Dist.Result r = Dist.run(dir, Dist.env(), cpx.toString(), "--version");
        assertEquals(0, r.exit(), r::toString);
        List<String> lines = Dist.lines(r.out());
        assertEquals("cpx " + Dist.VERSION, lines.get(0), "the version comes from the jar manifest");
        assertTrue(lines.contains("engine native " + Dist.VERSION), r.out());
        assertTrue(lines.contains("engine nio " + Dist.VERSION), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("java " + System.getProperty("java.version") + " (")), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("os Linux ")), r.out());
        assertEquals("", r.err());
    }

    @Test
    void refusesJavaOlderThan17InOneLine() throws Exception {
        // A Java home whose release file says 11; its java must never run (it would exit 99).
        Path old = Files.createDirectories(dir.resolve("jdk-11/bin"));
        Files.writeString(dir.resolve("jdk-11/release"), "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"11.0.22\"\n");
        Path java = Files.writeString(old.resolve("java"), "#!/bin/sh\nexit 99\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, String> env = Map.of("JAVA_HOME", dir.resolve("jdk-11").toString());
        Dist.Result r = Dist.run(dir, env, cpx.toString(), "--version");
        assertEquals(1, r.exit(), r::toString);
        assertEquals(List.of("cpx: cpx needs Java 17 or later, but " + java + " is Java 11.0.22: install a newer JDK or set JAVA_HOME to one"),
                Dist.lines(r.err()));
    }

    @Test
    void saysWhenJavaHomeHasNoJava() throws Exception {
        Dist.Result r = Dist.run(dir, Map.of("JAVA_HOME", dir.resolve("nothing").toString()), cpx.toString(), "--version");
        assertEquals(1, r.exit(), r::toString);
        assertEquals(List.of("cpx: JAVA_HOME is set to '" + dir.resolve("nothing") + "', which has no bin/java: point it to a JDK 17 or later"),
                Dist.lines(r.err()));
    }

    @Test
    void givesTheJvmItsFlagsAndCpxJavaOpts() throws Exception {
        Map<String, String> env = Dist.env();
        env.put("CPX_JAVA_OPTS", "-XX:+PrintFlagsFinal");
        Dist.Result r = Dist.run(dir, env, cpx.toString(), "--version");
        assertEquals(0, r.exit(), r::toString);
        assertTrue(r.out().matches("(?s).*\\bbool UseSerialGC\\s+= true\\b.*"), "the launcher's flags reach the JVM");
        assertTrue(r.out().matches("(?s).*\\bintx TieredStopAtLevel\\s+= 1\\b.*"), "the launcher's flags reach the JVM");
        assertTrue(r.out().contains("\ncpx " + Dist.VERSION + "\n"), r::toString);
    }

    /**
     * With standard input closed the JVM opens a file of its own on descriptor 0; the launcher tells
     * cpx, whose {@code -i} then declines with GNU cp's message rather than read that file.
     */
    @Test
    void tellsCpxWhenStandardInputIsClosed() throws Exception {
        Files.writeString(dir.resolve("f"), "new");
        Files.writeString(dir.resolve("c"), "old");
        Dist.Result r = Dist.run(dir, Dist.env(), "bash", "-c", "exec \"$0\" -i f c <&-", cpx.toString());
        assertEquals(1, r.exit(), r::toString);
        assertEquals("cpx: overwrite 'c'? cpx: error closing file: Bad file descriptor\n", r.err());
        assertEquals("old", Files.readString(dir.resolve("c")));
    }

    /**
     * cpx's messages are English in every locale: also a reason the JDK words itself (a full device),
     * which it takes from glibc's translations in a translated locale (German, made here with
     * localedef where the machine has its sources; else C's words).
     */
    @Test
    void messagesAreEnglishInATranslatedLocale() throws Exception {
        Files.writeString(dir.resolve("f"), "data");
        Path locales = Files.createDirectories(dir.resolve("locales"));
        new ProcessBuilder("localedef", "-i", "de_DE", "-f", "UTF-8", locales.resolve("de_DE.UTF-8").toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        Map<String, String> env = Dist.env();
        env.put("LOCPATH", locales.toString());
        env.put("LC_ALL", "de_DE.UTF-8");
        for (String engine : List.of("native", "nio")) {
            Dist.Result r = Dist.run(dir, env, cpx.toString(), "--engine=" + engine, "f", "/dev/full");
            assertEquals(1, r.exit(), r::toString);
            assertEquals("cpx: error writing '/dev/full': No space left on device\n", r.err());
        }
    }

    /**
     * In a working directory removed while the shell was in it the JVM cannot start; the launcher
     * starts it in / instead: absolute paths copy as with GNU cp, a relative one (which names nothing
     * there) is refused in one line, and nothing under / is touched.
     */
    @Test
    void copiesByAbsolutePathsInARemovedWorkingDirectory() throws Exception {
        Files.writeString(dir.resolve("f"), "data");
        String script = "mkdir gone && cd gone && rmdir ../gone && \"$0\" \"$1\" \"$2\" && \"$0\" f copy";
        Dist.Result r = Dist.run(dir, Dist.env(), "bash", "-c", script, cpx.toString(), dir.resolve("f").toString(),
                dir.resolve("g").toString());
        assertEquals(1, r.exit(), r::toString);
        assertEquals("data", Files.readString(dir.resolve("g")), r::toString);
        List<String> err = Dist.lines(r.err());
        assertEquals("cpx: cannot use 'f': the working directory was removed (No such file or directory)", err.get(err.size() - 1));
        assertTrue(err.stream().noneMatch(l -> l.contains("Exception") || l.contains("\tat ")), r::toString);
        assertFalse(Files.exists(Path.of("/copy")));
    }

    /**
     * A working directory named by more than PATH_MAX bytes: the JVM cannot start there either; the
     * launcher starts it in /, absolute paths copy, a relative one is refused in one line.
     */
    @Test
    void copiesByAbsolutePathsInAWorkingDirectoryTooDeepToName() throws Exception {
        Files.writeString(dir.resolve("f"), "data");
        String level = "d".repeat(200);
        String script = "for i in $(seq 25); do mkdir " + level + " && cd " + level + " || exit 9; done; "
                + "echo x > here && \"$0\" \"$1\" \"$2\" && \"$0\" here copy";
        Dist.Result r;
        try {
            r = Dist.run(dir, Dist.env(), "bash", "-c", script, cpx.toString(), dir.resolve("f").toString(),
                    dir.resolve("g").toString());
        } finally {
            // Deeper than Java's own deletion of the temporary directory reaches: rm(1) goes by descriptor.
            new ProcessBuilder("rm", "-rf", dir.resolve(level).toString()).inheritIO().start().waitFor();
        }
        assertEquals(1, r.exit(), r::toString);
        assertEquals("data", Files.readString(dir.resolve("g")), r::toString);
        assertEquals(List.of("cpx: cannot use 'here': the working directory's name is too long for Java (File name too long)"),
                Dist.lines(r.err()));
        assertFalse(Files.exists(Path.of("/copy")));
    }
}
