package dev.cpx.core.walk;

import dev.cpx.api.BackupMode;
import dev.cpx.api.Dereference;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.TargetMode;
import dev.cpx.core.copy.Destinations;
import dev.cpx.core.decide.Entry;
import dev.cpx.core.decide.ForcedBackup;
import dev.cpx.core.decide.JustCreated;
import dev.cpx.core.decide.Placement;
import dev.cpx.core.finish.Metadata;
import dev.cpx.core.finish.ResumeMarker;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.fs.TempNames;
import dev.cpx.core.run.RunContext;
import dev.cpx.core.run.Task;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * GNU cp's reading of the command line's operands: whether the destination is a directory to copy
 * into or the name of the copy, and the checks made once per operand before any work starts
 * (missing source, directory without {@code -r}, same file, directory into itself).
 */
final class Operands {

    private final RunContext context;
    private final Dispatch dispatch;
    private final Destinations destinations;
    private final JustCreated justCreated;
    private final Metadata metadata;
    private final ResumeMarker resumeMarker;
    private final Task root;
    /** The operands started so far, each until it completes. */
    private final List<OperandTask> started = new ArrayList<>();
    /** Parent directories made for --parents, whose attributes are set at the end. */
    private final List<Parent> parentsMade = new ArrayList<>();

    private record Parent(Path source, Path target, Stat stat) {
    }

    /** Directory operands started (device, inode, target), to warn about one named twice. */
    private final Set<List<Object>> directoriesSeen = ConcurrentHashMap.newKeySet();
    /** Whether the operands are checked against each other (several copied into a directory). */
    private boolean tracking;

    /** Whether --resume goes on into a destination marked as the unfinished copy of the operand. */
    private boolean resumingCopy;
    /** Destinations marked as the copy of a directory operand (cleared when everything is copied). */
    private final List<Path> marked = Collections.synchronizedList(new ArrayList<>());
    /** Directories that got new entries from the operands themselves, synced at the end with --fsync. */
    private final Set<Path> touchedDirectories = Collections.synchronizedSet(new LinkedHashSet<>());

    Operands(RunContext context, Dispatch dispatch, Destinations destinations, JustCreated justCreated, Metadata metadata,
            ResumeMarker resumeMarker, Task root) {
        this.context = context;
        this.dispatch = dispatch;
        this.destinations = destinations;
        this.justCreated = justCreated;
        this.metadata = metadata;
        this.resumeMarker = resumeMarker;
        this.root = root;
    }

    void start(List<Path> sources, Path operand) {
        Path destination = operand;
        if (ForcedBackup.applies(sources, operand, Stat.statOrNull(operand), context.options())) {
            Path backup = destinations.backupName(operand);
            if (backup != null) {
                destination = backup;
                destinations.withoutBackups();
            }
        }
        Boolean into = intoDirectory(sources, destination);
        if (into == null) {
            return;
        }
        // GNU keeps its "specified more than once" and "just-created" records for several operands
        // copied into a directory.
        tracking = into && sources.size() > 1;
        justCreated.enable(tracking);
        if (context.options().parents() && !into) {
            context.outcomes().failed(EntryKind.DIRECTORY, null, destination,
                    Diagnostic.of("with --parents, the destination must be a directory", destination));
            return;
        }
        Path destDir = PathBytes.withoutTrailingSlashes(destination);
        for (Path source : sources) {
            if (context.cancelled()) {
                return;
            }
            Path named = PathBytes.withoutTrailingSlashes(source);
            Path target;
            if (context.options().parents()) {
                target = destDir.resolve(relative(named));
                if (!makeParents(named, target)) {
                    continue;
                }
            } else {
                target = into ? inside(destDir, named) : destination;
            }
            Path src = source;
            Path dst = target;
            OperandTask[] self = new OperandTask[1];
            self[0] = new OperandTask(root, context.outcomes(), source, target, () -> startOne(self[0], src, dst, into));
            // As GNU cp, which copies operands one at a time: this one sees the earlier ones' results.
            self[0].after(root, started);
            started.add(self[0]);
        }
    }

    /** The source's path without its leading slashes, to append under the target directory. */
    private static Path relative(Path source) {
        Path root = source.getRoot();
        return root == null ? source : root.relativize(source);
    }

    /**
     * {@code --parents}: creates the missing directories between the target directory and the copy of
     * {@code source}, each with the mode of its source directory, as GNU cp does.
     */
    private boolean makeParents(Path source, Path target) {
        Path relative = relative(source);
        int count = relative.getNameCount();
        Path base = target;
        for (int i = 0; i < count; i++) {
            base = base.getParent();
        }
        Path srcDir = source.getRoot() == null ? null : source.getRoot();
        Path dstDir = base;
        for (int i = 0; i < count - 1; i++) {
            Path name = relative.getName(i);
            srcDir = srcDir == null ? name : srcDir.resolve(name);
            dstDir = dstDir.resolve(name);
            try {
                Stat srcStat = Stat.stat(srcDir);
                if (Stat.lstatOrNull(dstDir) == null) {
                    context.effects().createDirectory(dstDir, srcStat.permissions());
                    context.outcomes().parentCreated(srcDir, dstDir);
                    parentsMade.add(new Parent(srcDir, dstDir, srcStat));
                }
            } catch (IOException e) {
                context.outcomes().failed(EntryKind.DIRECTORY, srcDir, dstDir,
                        Diagnostic.of("cannot make directory {0}", dstDir, Diagnostic.reasonOf(e)));
                return false;
            }
        }
        return true;
    }

    /**
     * After everything: the parents made for --parents get their preserved attributes (deepest
     * first), directories that got new entries are synced (--fsync), and a complete copy loses its
     * --resume marker.
     */
    void finish() {
        for (int i = parentsMade.size() - 1; i >= 0; i--) {
            Parent p = parentsMade.get(i);
            metadata.apply(p.source(), p.target(), p.target(), p.stat(), false, false);
        }
        if (context.options().fsync()) {
            parentsMade.forEach(p -> touchedDirectories.add(p.target()));
            touchedDirectories.forEach(d -> dispatch.directories().sync(d, d));
        }
        if (context.counters().failed.sum() == 0 && !context.cancelled()) {
            marked.forEach(resumeMarker::clear);
        }
    }

    /**
     * {@code --resume} where DEST carries no mark (the first run completed, or ran without native
     * support): DEST is taken as the copy of SOURCE when DEST/SOURCE does not exist, DEST is not empty,
     * and every name in DEST is a name in SOURCE. A target directory holding anything else keeps
     * GNU's rule.
     */
    private static boolean looksLikeTheCopy(Path source, Path destination) {
        Path src = PathBytes.withoutTrailingSlashes(source);
        Path dst = PathBytes.withoutTrailingSlashes(destination);
        Path name = src.getFileName();
        if (name == null || Stat.lstatOrNull(dst.resolve(name)) != null) {
            return false;
        }
        boolean any = false;
        try (java.nio.file.DirectoryStream<Path> entries = Files.newDirectoryStream(dst)) {
            for (Path entry : entries) {
                any = true;
                Path entryName = entry.getFileName();
                if (!TempNames.isTemp(entryName) && Stat.lstatOrNull(src.resolve(entryName)) == null) {
                    return false;
                }
            }
        } catch (IOException | java.nio.file.DirectoryIteratorException e) {
            return false;
        }
        return any;
    }

    private Stat statOrNull(Path source) {
        boolean follow = context.options().effectiveDereference() != Dereference.NEVER || PathBytes.hasTrailingSlash(source);
        try {
            return Stat.of(source, follow);
        } catch (IOException e) {
            return null;
        }
    }

    /** True to copy into {@code destination}, false to make it the copy, null after a fatal error. */
    private Boolean intoDirectory(List<Path> sources, Path destination) {
        TargetMode mode = context.options().target();
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
                context.outcomes().failed(EntryKind.DIRECTORY, null, destination,
                        Diagnostic.of(template, destination, Diagnostic.reasonOf(e)));
                return null;
            }
        }
        boolean isDir = dest != null && dest.isDirectory();
        if (isDir && mode == TargetMode.AUTO && sources.size() == 1 && context.options().resume()) {
            // --resume of "cpx -r src dst" that was making dst the copy of src: go on into dst itself.
            Stat source = statOrNull(sources.get(0));
            if (source != null && source.isDirectory()
                    && (resumeMarker.isCopyOf(destination, source) || looksLikeTheCopy(sources.get(0), destination))) {
                resumingCopy = true;
                return false;
            }
        }
        if (!isDir && mode == TargetMode.DIRECTORY) {
            context.outcomes().failed(EntryKind.DIRECTORY, null, destination,
                    Diagnostic.of("target directory {0}", destination, "Not a directory"));
            return null;
        }
        if (!isDir && sources.size() > 1) {
            context.outcomes().failed(EntryKind.DIRECTORY, null, destination, Diagnostic.of("target {0}", destination, "Not a directory"));
            return null;
        }
        return isDir;
    }

    /** {@code dir/basename(source)}; the directory itself for sources without a name, such as {@code /}. */
    private static Path inside(Path dir, Path source) {
        Path name = source.getFileName();
        return name == null ? dir : dir.resolve(name);
    }

    /**
     * @param src the source as given (a trailing slash makes the kernel follow a link, or insist on a directory)
     * @param target the copy, as given when it is the destination operand itself
     */
    private void startOne(Task operand, Path src, Path target, boolean into) {
        Dereference deref = context.options().effectiveDereference();
        boolean follow = deref != Dereference.NEVER || PathBytes.hasTrailingSlash(src);
        Stat st;
        try {
            st = Stat.of(src, follow);
        } catch (IOException e) {
            context.outcomes().failed(EntryKind.UNKNOWN, src, target, Diagnostic.of("cannot stat {0}", src, Diagnostic.reasonOf(e)));
            return;
        }
        if (st.isDirectory()) {
            if (!context.options().recursive()) {
                context.outcomes().failed(EntryKind.DIRECTORY, src, target, Diagnostic.of("-r not specified; omitting directory {0}", src));
                return;
            }
        }
        if (tracking && !st.isDirectory() && context.options().backup() == BackupMode.NONE
                && !justCreated.recordSource(src, st)) {
            context.outcomes().warning(Diagnostic.of("warning: source file {0} specified more than once", src));
            return;
        }
        if (st.isDirectory() && into && !directoriesSeen.add(List.of(st.dev(), st.ino(), target))) {
            context.outcomes().warning(Diagnostic.of("warning: source directory {0} specified more than once", src));
            return;
        }
        if (!st.isDirectory() && PathBytes.hasTrailingSlash(target)) {
            context.outcomes().failed(EntryKind.FILE, src, target, Diagnostic.of("cannot create regular file {0}", target, "Not a directory"));
            return;
        }
        boolean asCopy = !into && st.isDirectory() && (resumingCopy || Stat.lstatOrNull(target) == null);
        if (asCopy) {
            marked.add(target);
        }
        Path parent = PathBytes.withoutTrailingSlashes(target).toAbsolutePath().getParent();
        if (parent != null) {
            touchedDirectories.add(parent);
        }
        dispatch.operand(operand, new Entry(src, target, st, Placement.OPERAND), asCopy && !resumingCopy);
    }
}
