package dev.cpx.core.walk;

import dev.cpx.spi.support.PathBytes;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.PatternSyntaxException;

/**
 * {@code --exclude} patterns: globs matched against an entry's path relative to its source operand,
 * or against its name alone when the pattern has no {@code /}. A pattern ending in {@code /} matches
 * directories only. An excluded directory is pruned: nothing below it is read.
 */
public final class Excludes {

    private record Pattern(PathMatcher matcher, boolean byName, boolean directoriesOnly) {
    }

    private final List<Pattern> patterns;

    private Excludes(List<Pattern> patterns) {
        this.patterns = patterns;
    }

    /**
     * Compiles the patterns.
     *
     * @throws IllegalArgumentException naming the first malformed pattern
     */
    public static Excludes of(List<String> globs) {
        List<Pattern> list = new ArrayList<>();
        for (String glob : globs) {
            String g = glob;
            boolean dirsOnly = g.length() > 1 && g.endsWith("/");
            while (g.length() > 1 && g.endsWith("/")) {
                g = g.substring(0, g.length() - 1);
            }
            if (g.startsWith("/")) {
                g = g.substring(1);
            }
            if (g.isEmpty()) {
                throw new IllegalArgumentException("invalid exclude pattern '" + glob + "': empty");
            }
            try {
                list.add(new Pattern(FileSystems.getDefault().getPathMatcher("glob:" + g), !g.contains("/"), dirsOnly));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("invalid exclude pattern '" + glob + "': " + e.getDescription());
            }
        }
        return new Excludes(List.copyOf(list));
    }

    public boolean isEmpty() {
        return patterns.isEmpty();
    }

    /** Whether a pattern that needs no attributes (no trailing {@code /}) excludes {@code name} at {@code relative}. */
    public boolean excludesAnyEntry(Path name, Path relative) {
        for (Pattern p : patterns) {
            if (!p.directoriesOnly() && p.matcher().matches(p.byName() ? name : relative)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a directory-only pattern excludes the directory {@code name} at {@code relative}. */
    public boolean excludesDirectory(Path name, Path relative) {
        for (Pattern p : patterns) {
            if (p.directoriesOnly() && p.matcher().matches(p.byName() ? name : relative)) {
                return true;
            }
        }
        return false;
    }

    /** Whether directory-only patterns exist (then a directory's kind must be known to decide). */
    boolean hasDirectoryPatterns() {
        return patterns.stream().anyMatch(Pattern::directoriesOnly);
    }

    /** {@code child} relative to the operand {@code root}, for matching. */
    static Path relative(Path root, Path child) {
        return PathBytes.withoutTrailingSlashes(root).relativize(child);
    }
}
