package dev.cpx.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A working directory that was removed while the shell was in it: the JVM cannot start there (it
 * asks the kernel for the directory's name, which fails), so the launcher starts it in {@code /}
 * and says so ({@code -Dcpx.cwd=gone}). Absolute paths mean what they meant; a relative one would
 * now name something under {@code /}, where in the removed directory it names nothing (GNU cp:
 * {@code No such file or directory}), so a command with one is refused before anything is read.
 */
final class RemovedWorkingDirectory {

    /** The options whose values are paths (canonical names, as {@link Getopt} gives them). */
    private static final Set<String> PATH_OPTIONS = Set.of("--target-directory", "--exclude-from", "--plan", "--work",
            "--finish", "--status");

    private RemovedWorkingDirectory() {
    }

    /** Whether the launcher found the working directory removed. */
    static boolean gone() {
        return "gone".equals(System.getProperty("cpx.cwd"));
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
