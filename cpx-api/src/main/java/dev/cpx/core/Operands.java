package dev.cpx.core;

import dev.cpx.api.Dereference;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.Source;
import dev.cpx.api.TargetMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * GNU cp's reading of the command line's operands: whether the destination is a directory to copy
 * into or the name of the copy, and the checks made once per operand before any work starts
 * (missing source, directory without {@code -r}, same file, directory into itself).
 */
final class Operands {

    private final CopyRun run;
    private final Root root;

    Operands(CopyRun run, Root root) {
        this.run = run;
        this.root = root;
    }

    void start(List<Source> sources, Path destination) {
        Boolean into = intoDirectory(sources, destination);
        if (into == null) {
            return;
        }
        for (Source source : sources) {
            if (run.cancelled()) {
                return;
            }
            Path target = into ? inside(destination, source.path()) : destination;
            startOne(source, target);
        }
    }

    /** True to copy into {@code destination}, false to make it the copy, null after a fatal error. */
    private Boolean intoDirectory(List<Source> sources, Path destination) {
        TargetMode mode = run.options.target();
        if (mode == TargetMode.NO_DIRECTORY) {
            return false;
        }
        Stat dest;
        try {
            dest = Stat.stat(destination);
        } catch (IOException e) {
            dest = null;
            if (mode == TargetMode.DIRECTORY || sources.size() > 1) {
                String template = mode == TargetMode.DIRECTORY ? "target directory {0}" : "target {0}";
                run.failed(EntryKind.DIRECTORY, null, destination, Diagnostic.of(template, destination, Errors.reason(e)));
                return null;
            }
        }
        boolean isDir = dest != null && dest.isDirectory();
        if (!isDir && mode == TargetMode.DIRECTORY) {
            run.failed(EntryKind.DIRECTORY, null, destination,
                    Diagnostic.of("target directory {0}", destination, "Not a directory"));
            return null;
        }
        if (!isDir && sources.size() > 1) {
            run.failed(EntryKind.DIRECTORY, null, destination, Diagnostic.of("target {0} is not a directory", destination));
            return null;
        }
        return isDir;
    }

    /** {@code dir/basename(source)}; the directory itself for sources without a name, such as {@code /}. */
    private static Path inside(Path dir, Path source) {
        Path name = source.getFileName();
        return name == null ? dir : dir.resolve(name);
    }

    private void startOne(Source source, Path target) {
        Path src = source.path();
        Dereference deref = run.options.effectiveDereference();
        boolean follow = deref != Dereference.NEVER || source.trailingSlash();
        Stat st;
        try {
            st = Stat.of(src, follow);
        } catch (IOException e) {
            run.failed(EntryKind.UNKNOWN, src, target, Diagnostic.of("cannot stat {0}", src, Errors.reason(e)));
            return;
        }
        if (st.isDirectory()) {
            if (!run.options.recursive()) {
                run.failed(EntryKind.DIRECTORY, src, target, Diagnostic.of("-r not specified; omitting directory {0}", src));
                return;
            }
        }
        if (sameFile(st, target)) {
            run.failed(EntryKind.FILE, src, target, Diagnostic.of("{0} and {1} are the same file", src, target));
            return;
        }
        run.entries.dispatch(root, InsertionOrder.IMMEDIATE, 0, src, target, st, false, null);
    }

    private static boolean sameFile(Stat src, Path target) {
        try {
            return src.sameFile(Stat.stat(target));
        } catch (IOException e) {
            return false;
        }
    }
}
