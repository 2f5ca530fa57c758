package dev.cpx.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A working directory the JVM cannot start in, because the kernel cannot name it: removed while the
 * shell was in it, or named by more than PATH_MAX bytes. The launcher starts the JVM in {@code /}
 * instead and says why ({@code -Dcpx.cwd=gone} or {@code long}). Absolute paths mean what they
 * meant; a relative one would now name something under {@code /} (in a removed directory it names
 * nothing: GNU cp says {@code No such file or directory}), so a command with one is refused before
 * anything is read.
 */
final class UnnamedWorkingDirectory {

    /** The options whose values are paths (canonical names, as {@link Getopt} gives them). */
    private static final Set<String> PATH_OPTIONS = Set.of("--target-directory", "--exclude-from", "--plan", "--work",
            "--finish", "--status");

    private UnnamedWorkingDirectory() {
    }

    /** Why the JVM runs away from the working directory (for a message), or null if it runs in it. */
    static String why() {
        String cwd = System.getProperty("cpx.cwd");
        if (cwd == null) {
            return null;
        }
        return cwd.equals("long") ? "the working directory's name is too long for Java (File name too long)"
                : "the working directory was removed (No such file or directory)";
    }

    /** The first relative path among the operands and the options' path values, or null if all are absolute. */
    static String firstRelative(String[] options, List<String> operands) {
        List<String> paths = new ArrayList<>();
        for (String o : options) {
            int eq = o.indexOf('=');
            if (eq > 0 && PATH_OPTIONS.contains(o.substring(0, eq))) {
                paths.add(o.substring(eq + 1));
            } else if (eq > 0 && o.startsWith("--plugin-path=")) {
                paths.addAll(List.of(o.substring(eq + 1).split(":")));
            }
        }
        paths.addAll(operands);
        for (String p : paths) {
            if (!p.isEmpty() && !p.startsWith("/")) {
                return p;
            }
        }
        return null;
    }
}
