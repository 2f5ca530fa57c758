package dev.cpx.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * An unprivileged account for tests of permissions: the machines run tests as root, which bypasses
 * permissions, so these tests drop to this user with {@code setpriv}. The account is created (as a
 * system user without a home) the first time it is needed.
 */
public final class Unprivileged {

    /** The account's name. */
    public static final String USER = "cpxtest";

    private static int uid = -1;
    private static int gid = -1;
    private static String classpath;
    private static String staged;

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
            assumeTrue("0".equals(run("id", "-u")), "creating the test user " + USER + " needs root");
            run("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER);
            id = run("id", "-u", USER);
        }
        assumeTrue(id != null, "no unprivileged test user " + USER + " (useradd failed)");
        uid = Integer.parseInt(id);
        gid = Integer.parseInt(run("id", "-g", USER));
    }

    /** The command prefix that runs a program as the account, without supplementary groups. */
    public static List<String> prefix() {
        return List.of("setpriv", "--reuid=" + uid(), "--regid=" + gid(), "--clear-groups", "--");
    }

    /** Gives the account the whole tree under {@code root}. */
    public static void own(Path root) {
        assumeTrue(run("chown", "-R", uid() + ":" + gid(), root.toString()) != null, "chown failed");
    }

    /**
     * This JVM's class path, staged where the account can read it: the Maven repository under /root
     * is not readable by others, and neither is a checkout under a private directory (a clone in
     * {@code mktemp -d}, mode 0700), so jar files are copied and class directories jarred into one
     * world-readable directory under {@code java.io.tmpdir} (jars only: a JVM maps a class data
     * sharing archive of a class path of jars, never of directories). Fails at once, saying what to
     * change, where the account still cannot read what was staged.
     */
    public static synchronized String readableClasspath() throws IOException {
        if (classpath != null) {
            return classpath;
        }
        String cp = stagedClasspath();
        List<String> entries = List.of(cp.split(File.pathSeparator));
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> check = new ArrayList<>(prefix());
        check.addAll(List.of("/bin/sh", "-c", "for f in \"$@\"; do test -r \"$f\" || { echo \"$f\"; exit 1; }; done", "check",
                java));
        check.addAll(entries);
        String unreadable = runFailing(check.toArray(String[]::new));
        if (unreadable != null) {
            throw new IllegalStateException("the unprivileged test user " + USER + " cannot read " + unreadable
                    + " (staged from this JVM's class path under " + Path.of(entries.get(0)).getParent()
                    + "): run the tests with a java.io.tmpdir and a JDK that every user can read (e.g. -Djava.io.tmpdir=/tmp)");
        }
        classpath = cp;
        return classpath;
    }

    /**
     * This JVM's class path as jar files in one new world-readable directory (see
     * {@link #readableClasspath}, which also checks that the account can read them); made once.
     */
    public static synchronized String stagedClasspath() throws IOException {
        if (staged != null) {
            return staged;
        }
        Path dir = Files.createTempDirectory("cpx-test-classpath");
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
        deleteOnExit(dir);
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

    /** Removes the staged class path when this JVM exits (deleteOnExit removes only empty directories). */
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
