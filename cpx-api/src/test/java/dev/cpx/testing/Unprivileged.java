package dev.cpx.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
     * This JVM's class path, copied where the account can read it (the Maven repository under
     * /root is not readable by others).
     */
    public static synchronized String readableClasspath() throws IOException {
        if (classpath != null) {
            return classpath;
        }
        Path dir = Files.createTempDirectory("cpx-test-classpath");
        dir.toFile().deleteOnExit();
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (Files.isRegularFile(p)) {
                Path copy = dir.resolve((n++) + "-" + p.getFileName());
                Files.copy(p, copy, StandardCopyOption.REPLACE_EXISTING);
                entries.add(copy.toString());
            } else {
                entries.add(entry);
            }
        }
        run("chmod", "-R", "a+rX", dir.toString());
        classpath = String.join(File.pathSeparator, entries);
        return classpath;
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
