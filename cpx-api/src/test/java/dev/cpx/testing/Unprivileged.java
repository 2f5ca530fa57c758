package dev.cpx.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * An unprivileged account for tests of permissions: the machines run tests as root, which bypasses
 * permissions, so these tests drop to this user with {@code setpriv}. The account is created (as a
 * system user without a home) the first time it is needed. What it runs (the JVM's class path, the
 * build's JVM flags files) is {@linkplain #staged staged} in one directory every user can read, as a
 * checkout may sit anywhere. Where the tests do not run as root, tests that need the account skip,
 * saying so.
 */
public final class Unprivileged {

    /** The account's name. */
    public static final String USER = "cpxtest";

    private static final boolean IS_ROOT = "0".equals(run("id", "-u"));
    private static int uid = -1;
    private static int gid = -1;
    private static String staged;
    private static Path staging;
    private static final Map<Path, Path> stagedFiles = new HashMap<>();
    /** Null until checked, then empty where the account reaches what it runs, else why not. */
    private static String reachable;

    private Unprivileged() {
    }

    /** The account's uid, creating the account if needed (skips the test clearly where that is impossible). */
    public static synchronized int uid() {
        ensure();
        return uid;
    }

    public static synchronized int gid() {
        ensure();
        return gid;
    }

    private static void ensure() {
        if (uid >= 0) {
            return;
        }
        String id = run("id", "-u", USER);
        if (id == null) {
            assumeTrue(IS_ROOT, "creating the test user " + USER + " needs root");
            run("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER);
            id = run("id", "-u", USER);
        }
        assumeTrue(id != null, "no unprivileged test user " + USER + " (useradd failed)");
        uid = Integer.parseInt(id);
        gid = Integer.parseInt(run("id", "-g", USER));
    }

    /** True where the tests run as root, the only user that can drop to another (setpriv) or give it files (chown). */
    public static boolean isRoot() {
        return IS_ROOT;
    }

    /** Skips the test where it does not run as root, saying why. */
    private static void assumeRoot() {
        assumeTrue(IS_ROOT, "running as the unprivileged user " + USER + " (setpriv) and giving it files (chown) need root: "
                + "this test runs only where the tests run as root");
    }

    /**
     * The command prefix that runs a program as the account, without supplementary groups (skips
     * the test where the tests do not run as root, which alone can drop to another user, or where
     * the account cannot reach what it runs: see {@link #stagingDirectory}).
     */
    public static List<String> prefix() {
        assumeRoot();
        assumeReachable();
        return List.of("setpriv", "--reuid=" + uid(), "--regid=" + gid(), "--clear-groups", "--");
    }

    /** As {@link #prefix()}, the account being a member of these supplementary groups too (comma-separated gids). */
    public static List<String> prefix(String groups) {
        assumeRoot();
        assumeReachable();
        return List.of("setpriv", "--reuid=" + uid(), "--regid=" + gid(), "--groups=" + gid() + "," + groups, "--");
    }

    /** Gives the account the whole tree under {@code root}. */
    public static void own(Path root) {
        assumeRoot();
        assumeTrue(run("chown", "-R", uid() + ":" + gid(), root.toString()) != null, "chown failed");
    }

    /**
     * The directory everything the account runs is staged in: made once per test JVM under
     * {@code java.io.tmpdir}, readable and searchable by every user, removed when the JVM exits. A
     * checkout may sit under a directory only its owner can enter (root's home is 0700, so is a
     * {@code mktemp -d}), and the Maven repository under /root is private: what the account needs
     * from them is copied here, never reached by loosening the permissions of the user's directories.
     */
    public static synchronized Path stagingDirectory() throws IOException {
        if (staging == null) {
            Path dir = Files.createTempDirectory("cpx-test-staged");
            deleteOnExit(dir);
            Files.setAttribute(dir, "unix:mode", 0755);
            staging = dir;
        }
        return staging;
    }

    /**
     * A world-readable copy of {@code file} in the {@link #stagingDirectory}, made once per file
     * (the JVM flags files of a build, for example), for a process run as the account.
     */
    public static synchronized Path staged(Path file) throws IOException {
        Path source = file.toAbsolutePath();
        Path copy = stagedFiles.get(source);
        if (copy == null) {
            copy = stagingDirectory().resolve("file-" + stagedFiles.size() + "-" + source.getFileName());
            Files.copy(source, copy, StandardCopyOption.REPLACE_EXISTING);
            Files.setAttribute(copy, "unix:mode", 0644);
            stagedFiles.put(source, copy);
        }
        return copy;
    }

    /**
     * This JVM's {@code java} command: what a process started as the account runs (the class path,
     * the flags and any class data sharing archive it reads are {@link #staged}).
     */
    public static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    /**
     * Skips the test, saying why and what to change, where the account cannot run {@link #java} or
     * read the staging directory (a JDK under a private directory, a private java.io.tmpdir);
     * checked once.
     */
    private static synchronized void assumeReachable() {
        if (reachable != null) {
            assumeTrue(reachable.isEmpty(), reachable);
            return;
        }
        Path dir;
        try {
            dir = stagingDirectory();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> check = new ArrayList<>(List.of("setpriv", "--reuid=" + uid(), "--regid=" + gid(), "--clear-groups", "--"));
        check.addAll(List.of("/bin/sh", "-c", """
                d=$1; shift
                [ -x "$d" ] && [ -z "$(find "$d" ! -readable -print -quit 2>&1)" ] || { echo "cannot read $d"; exit 1; }
                "$@" -version >/dev/null 2>&1 || { echo "cannot run $1"; exit 1; }
                """, "check", dir.toString(), java()));
        String failure = runFailing(check.toArray(String[]::new));
        reachable = failure == null ? ""
                : "the unprivileged test user " + USER + " " + failure + " (" + dir + " holds what it runs, staged from this JVM): "
                        + "run the tests with a JDK every user can run (e.g. JAVA_HOME=/usr/lib/jvm/...) and a java.io.tmpdir every user can enter "
                        + "(e.g. -Djava.io.tmpdir=/tmp)";
        assumeTrue(reachable.isEmpty(), reachable);
    }

    /**
     * This JVM's class path as jar files in the {@link #stagingDirectory}, made once: for runs as
     * the account (whose {@link #prefix} checks that it can read them), for a class data sharing
     * archive (a JVM maps one only of a class path of jars), and for runs in another locale (under
     * an ASCII path, where the checkout's may not decode: a clone in {@code cöpx} in the C locale).
     */
    public static synchronized String stagedClasspath() throws IOException {
        if (staged != null) {
            return staged;
        }
        Path dir = Files.createDirectory(stagingDirectory().resolve("classpath"));
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            Path p = Path.of(entry);
            Path copy = dir.resolve((n++) + "-" + p.getFileName() + (Files.isDirectory(p) ? ".jar" : ""));
            if (Files.isRegularFile(p)) {
                Files.copy(p, copy, StandardCopyOption.REPLACE_EXISTING);
                entries.add(copy.toString());
            } else if (Files.isDirectory(p)) {
                jar(p, copy);
                entries.add(copy.toString());
            }
            // An entry that does not exist adds nothing to a class path: it is left out.
        }
        run("chmod", "-R", "a+rX", dir.toString());
        staged = String.join(File.pathSeparator, entries);
        return staged;
    }

    /** {@code dir}'s files as a jar (without a manifest of its own, as a class directory has none). */
    private static void jar(Path dir, Path jar) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out);
                Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted().toList()) {
                String name = dir.relativize(p).toString().replace(File.separatorChar, '/');
                if (name.isEmpty() || name.equals("META-INF/MANIFEST.MF")) {
                    continue;
                }
                if (Files.isDirectory(p)) {
                    j.putNextEntry(new JarEntry(name + "/"));
                } else {
                    j.putNextEntry(new JarEntry(name));
                    Files.copy(p, j);
                }
                j.closeEntry();
            }
        }
    }

    /** Removes the staging directory when this JVM exits (deleteOnExit removes only empty directories). */
    private static void deleteOnExit(Path dir) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> run("rm", "-rf", dir.toString())));
    }

    /** Runs a command: null where it succeeds, else what it printed (or a word saying it could not run). */
    private static String runFailing(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "(the check timed out)";
            }
            return p.exitValue() == 0 ? null : out.isEmpty() ? "(the check failed)" : out;
        } catch (IOException e) {
            return "(the check could not run: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    private static String run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
