package dev.cpx.cli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Debian packages a test needs, installed by the test where they are missing and the test runs as
 * root, and removed again when the test JVM ends (the machine is left as it was found).
 */
final class Packages {

    /** Packages this JVM installed, removed at its end. */
    private static final List<String> INSTALLED = new ArrayList<>();

    private Packages() {
    }

    /** Whether {@code command} is on the PATH, installing {@code packages} first if not; false where that fails. */
    static synchronized boolean ensure(String command, String... packages) {
        if (onPath(command)) {
            return true;
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            return false;
        }
        List<String> install = new ArrayList<>(List.of("apt-get", "-o", "DPkg::Lock::Timeout=600", "install", "-y", "-q"));
        install.addAll(List.of(packages));
        if (!run(install)) {
            run(List.of("apt-get", "update", "-q"));
            run(install);
        }
        if (onPath(command)) {
            if (INSTALLED.isEmpty()) {
                Runtime.getRuntime().addShutdownHook(new Thread(Packages::removeInstalled));
            }
            INSTALLED.addAll(List.of(packages));
            return true;
        }
        return false;
    }

    private static synchronized void removeInstalled() {
        List<String> remove = new ArrayList<>(List.of("apt-get", "-o", "DPkg::Lock::Timeout=600", "remove", "-y", "-q"));
        remove.addAll(INSTALLED);
        run(remove);
    }

    static boolean onPath(String command) {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, command))) {
                return true;
            }
        }
        return Files.isExecutable(Path.of("/usr/sbin", command));
    }

    private static boolean run(List<String> command) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put("DEBIAN_FRONTEND", "noninteractive");
            return pb.start().waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }
}
