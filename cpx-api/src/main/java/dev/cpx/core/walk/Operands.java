package dev.cpx.core.walk;

import dev.cpx.api.Attribute;
import dev.cpx.api.BackupMode;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.Dereference;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.OverwritePolicy;
import dev.cpx.api.TargetMode;
import dev.cpx.core.copy.Destinations;
import dev.cpx.core.decide.Entry;
import dev.cpx.core.decide.ForcedBackup;
import dev.cpx.core.decide.JustCreated;
import dev.cpx.core.decide.ParentModes;
import dev.cpx.core.decide.SlashedTarget;
import dev.cpx.core.decide.Targets;
import dev.cpx.core.decide.Placement;
import dev.cpx.core.finish.ResumeMarker;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.fs.TempNames;
import dev.cpx.core.fs.Umask;
import dev.cpx.core.run.RunContext;
import dev.cpx.core.run.Task;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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

    private static final String NO_SUCH_FILE = "No such file or directory";

    private final RunContext context;
    private final Dispatch dispatch;
    private final Destinations destinations;
    private final JustCreated justCreated;
    private final ResumeMarker resumeMarker;
    private final Task root;
    /** The operands registered so far, to find those a later one may touch. */
    private final OperandOverlaps<OperandTask> started = new OperandOverlaps<>();
    /** The operand registered last. */
    private OperandTask last;
    /**
     * A parent directory of a {@code --parents} copy, given attributes once the operand is copied.
     *
     * @param restore the mode it gets when its mode is not preserved; -1 to leave it
     */
    private record Parent(Path source, Path target, Stat stat, int restore) {
    }

    /** Directory operands started (device, inode, target), to warn about one named twice. */
    private final Set<List<Object>> directoriesSeen = ConcurrentHashMap.newKeySet();
    /** Whether the operands are checked against each other (several copied into a directory). */
    private boolean tracking;

    /** Whether --resume goes on into a destination marked as the unfinished copy of the operand. */
    private boolean resumingCopy;
    /** Regular-file operands copied into a directory relative to open directories; null: by their paths. */
    private final OperandFiles operandFiles;
    /** What a thread does when the operands stop starting on it ({@link OperandFiles#idle}). */
    private final Runnable idle;
    private static final Runnable NOTHING = () -> { };
    /** The directory the operands are copied into (as given, without trailing slashes), or the destination. */
    private Path destinationDirectory;
    /** Directories that got new entries from the operands themselves, synced at the end with --fsync. */
    private final Set<Path> touchedDirectories = Collections.synchronizedSet(new LinkedHashSet<>());

    Operands(RunContext context, Dispatch dispatch, Destinations destinations, JustCreated justCreated,
            ResumeMarker resumeMarker, Task root) {
        this.context = context;
        this.dispatch = dispatch;
        this.destinations = destinations;
        this.justCreated = justCreated;
        this.resumeMarker = resumeMarker;
        this.root = root;
        // Small files' writes handed on once decided, unless questions are asked (-i): one is answered
        // before the file asked about is written, and its errors come before the next question.
        this.operandFiles = dispatch.operandFilesAt() && !context.options().parents()
                ? new OperandFiles(dispatch, context.outcomes(), context.options().overwrite() != OverwritePolicy.ASK) : null;
        this.idle = operandFiles == null ? NOTHING : operandFiles::idle;
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
        destinationDirectory = destDir;
        if (dispatch.linksAsked()) {
            // Questions about hard links come in order only if new directories are copied in order too;
            // where no operand's copy exists yet (cp -ai src new), nothing will be asked at all.
            boolean anyThere = false;
            for (int i = 0; i < sources.size() && !anyThere; i++) {
                anyThere = Stat.statOrNull(target(PathBytes.withoutTrailingSlashes(sources.get(i)), destDir, destination, into)) != null;
            }
            dispatch.newDirectoriesInOrder(anyThere);
        }
        for (Path source : sources) {
            if (context.cancelled()) {
                return;
            }
            Path named = PathBytes.withoutTrailingSlashes(source);
            Path target = target(named, destDir, destination, into);
            OperandTask[] self = new OperandTask[1];
            List<Parent> parents = new ArrayList<>();
            Runnable start = () -> {
                if (context.options().parents()) {
                    // GNU makes the parents when this operand's turn comes, and gives them their
                    // attributes once it is copied.
                    List<Parent> made = makeParents(named, target);
                    if (made == null) {
                        return;
                    }
                    parents.addAll(made);
                }
                startOne(self[0], source, target, into);
            };
            self[0] = new OperandTask(root, context.outcomes(), source, target, start, () -> reprotect(parents), idle);
            // As GNU cp, which copies operands one at a time: this one sees the earlier ones' results.
            // With --parents, operands make and set directories they may share: one after the other.
            self[0].after(root, started, last, context.options().parents());
            last = self[0];
        }
    }

    /** Where the operand {@code named} (without trailing slashes) is copied to: into {@code destDir}, or as {@code destination}. */
    private Path target(Path named, Path destDir, Path destination, boolean into) {
        if (context.options().parents()) {
            return destDir.resolve(relative(named));
        }
        return into ? inside(destDir, named) : destination;
    }

    /** The source's path without its leading slashes, to append under the target directory. */
    private static Path relative(Path source) {
        Path root = source.getRoot();
        return root == null ? source : root.relativize(source);
    }

    /**
     * {@code --parents}: makes the missing directories between the target directory and the copy of
     * {@code source}, in GNU cp's order: each component of the source is checked to be a directory
     * before its copy is made (restricted while the copy runs, see {@link ParentModes}). Returns the
     * parents whose attributes are set once the operand is copied (with {@code -p}, also those that
     * existed), or null after a failure (reported): then the operand is not copied. When every parent
     * exists already, nothing is done to them.
     */
    private List<Parent> makeParents(Path source, Path target) {
        Path relative = relative(source);
        int count = relative.getNameCount();
        if (count <= 1) {
            return List.of();
        }
        Path parent = target.getParent();
        Stat whole = Stat.statOrNull(parent);
        if (whole != null) {
            if (!whole.isDirectory()) {
                fail(source, parent, Diagnostic.of("{0} exists but is not a directory", parent));
                return null;
            }
            return List.of();
        }
        CopyOptions o = context.options();
        boolean preserving = o.preserves(Attribute.OWNERSHIP) || o.preserves(Attribute.MODE) || o.preserves(Attribute.TIMESTAMPS);
        Path base = target;
        for (int i = 0; i < count; i++) {
            base = base.getParent();
        }
        List<Parent> list = new ArrayList<>();
        Path srcDir = source.getRoot();
        Path dstDir = base;
        for (int i = 0; i < count - 1; i++) {
            Path name = relative.getName(i);
            srcDir = srcDir == null ? name : srcDir.resolve(name);
            dstDir = dstDir.resolve(name);
            Stat existing = Stat.statOrNull(dstDir);
            Stat srcStat = null;
            if (existing == null || preserving) {
                try {
                    srcStat = Stat.stat(srcDir);
                } catch (IOException e) {
                    fail(srcDir, dstDir, Diagnostic.of("failed to get attributes of {0}", srcDir, Diagnostic.reasonOf(e)));
                    return null;
                }
                if (!srcStat.isDirectory()) {
                    fail(srcDir, dstDir, Diagnostic.of("failed to get attributes of {0}", srcDir, "Not a directory"));
                    return null;
                }
            }
            if (existing == null) {
                int omitted = ParentModes.omitted(srcStat.permissions(), o);
                try {
                    context.effects().createDirectory(dstDir, ParentModes.mkdirMode(srcStat.permissions(), o));
                } catch (IOException e) {
                    fail(srcDir, dstDir, Diagnostic.of("cannot make directory {0}", dstDir, Diagnostic.reasonOf(e)));
                    return null;
                }
                context.outcomes().parentCreated(srcDir, dstDir);
                Stat made = Stat.lstatOrNull(dstDir);
                int restore = made == null ? -1 : ParentModes.restoreMode(made.permissions(), omitted, Umask.get(), o);
                if (made != null && (made.permissions() & 0700) != 0700) {
                    try {
                        // Searchable and writable while the copy goes into it.
                        context.effects().setMode(dstDir, made.permissions() | 0700);
                    } catch (IOException e) {
                        fail(srcDir, dstDir, Diagnostic.of("setting permissions for {0}", dstDir, Diagnostic.reasonOf(e)));
                        return null;
                    }
                }
                list.add(new Parent(srcDir, dstDir, srcStat, restore));
            } else if (!existing.isDirectory()) {
                fail(srcDir, dstDir, Diagnostic.of("{0} exists but is not a directory", dstDir));
                return null;
            } else if (preserving) {
                list.add(new Parent(srcDir, dstDir, srcStat, -1));
            }
        }
        return list;
    }

    private void fail(Path source, Path target, Diagnostic why) {
        context.outcomes().failed(EntryKind.DIRECTORY, source, target, why);
    }

    /**
     * After an operand with {@code --parents} is copied: its parents get the preserved attributes of
     * their sources, deepest first, or the mode they were meant to have (GNU's {@code re_protect}).
     */
    private void reprotect(List<Parent> parents) {
        CopyOptions o = context.options();
        for (int i = parents.size() - 1; i >= 0; i--) {
            Parent p = parents.get(i);
            try {
                if (o.preserves(Attribute.TIMESTAMPS)) {
                    context.effects().setTimes(p.target(), p.stat().atime(), p.stat().mtime(), true);
                }
            } catch (IOException e) {
                fail(p.source(), p.target(), Diagnostic.of("failed to preserve times for {0}", p.target(), Diagnostic.reasonOf(e)));
                return;
            }
            if (o.preserves(Attribute.OWNERSHIP)) {
                try {
                    context.effects().setOwner(p.target(), p.stat().uid(), p.stat().gid(), false);
                } catch (IOException e) {
                    // As for every entry: an unprivileged user keeps the group if possible, says nothing.
                    try {
                        context.effects().setGroup(p.target(), p.stat().gid(), false);
                    } catch (IOException ignored) {
                        // the group is not ours to give either
                    }
                }
            }
            int mode = o.preserves(Attribute.MODE) ? preservedMode(p) : p.restore();
            if (mode >= 0) {
                try {
                    context.effects().setMode(p.target(), mode);
                } catch (IOException e) {
                    fail(p.source(), p.target(), Diagnostic.of("failed to preserve permissions for {0}", p.target(),
                            Diagnostic.reasonOf(e)));
                    return;
                }
            }
        }
        if (o.fsync()) {
            parents.forEach(p -> touchedDirectories.add(p.target()));
        }
    }

    /** The source's mode for a parent, keeping a set-gid bit it inherited where the source has no such bits. */
    private static int preservedMode(Parent p) {
        int mode = p.stat().permissions();
        Stat now = Stat.statOrNull(p.target());
        return (mode & 07000) == 0 && now != null ? mode | (now.permissions() & 07000) : mode;
    }

    /**
     * After everything: directories that got new entries are synced (--fsync).
     */
    void finish() {
        if (operandFiles != null) {
            operandFiles.close();
        }
        if (context.options().fsync()) {
            touchedDirectories.forEach(d -> dispatch.directories().sync(d, d));
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

    /** True to copy into {@code destination}, false to make it the copy, null after a fatal error (reported). */
    private Boolean intoDirectory(List<Path> sources, Path destination) {
        Stat dest = null;
        String failure = NO_SUCH_FILE;
        try {
            // An empty operand names nothing (the kernel's ENOENT), not the working directory as for Java.
            dest = PathBytes.isEmpty(destination) ? null : Stat.stat(destination);
        } catch (IOException e) {
            failure = Diagnostic.reasonOf(e);
        }
        Targets.Decision d = Targets.decide(context.options().target(), sources.size(), destination, dest, failure,
                context.options().resume(), () -> {
                    // --resume of "cpx -r src dst" that was making dst the copy of src.
                    Stat source = statOrNull(sources.get(0));
                    return source != null && source.isDirectory()
                            && (resumeMarker.isCopyOf(destination, source) || looksLikeTheCopy(sources.get(0), destination));
                });
        if (d instanceof Targets.Fail f) {
            context.outcomes().failed(EntryKind.DIRECTORY, null, destination, f.why());
            return null;
        }
        if (d instanceof Targets.As as) {
            resumingCopy = as.resuming();
            return false;
        }
        return true;
    }

    /**
     * {@code dir/basename(source)}; the directory itself for sources without a name, such as {@code /};
     * {@code dir/.} for {@code source/..}, as GNU cp never copies into {@code dir/..}.
     */
    private static Path inside(Path dir, Path source) {
        Path name = source.getFileName();
        if (name == null) {
            return dir;
        }
        return dir.resolve(name.toString().equals("..") ? Path.of(".") : name);
    }

    /**
     * The copy of {@code src} as the empty destination {@code ""}: it cannot be made, and GNU cp says so
     * as the system call that makes it does ({@code ENOENT}), for each kind of copy.
     */
    private void refuseEmpty(Path src, Path target, Stat st) {
        if (st.isDirectory()) {
            context.outcomes().failed(EntryKind.DIRECTORY, src, target, Diagnostic.of("cannot create directory {0}", target, NO_SUCH_FILE));
            return;
        }
        CopyOptions o = context.options();
        report(src, target, st, SlashedTarget.refusal(src, target, st, o.mode(), o.recursive() && !o.copyContents(), o.force(),
                o.overwrite() == OverwritePolicy.ASK, SlashedTarget.Probe.EMPTY, NO_SUCH_FILE));
    }

    /**
     * Reports a copy that cannot be made, as GNU cp does: its {@code -v} line first where GNU prints
     * one, and for a copy of data, the source opened to read first (a FIFO waits for its writer there,
     * as in GNU), so that an unreadable source is what is reported.
     */
    private void report(Path src, Path target, Stat st, SlashedTarget.Refusal r) {
        EntryKind kind = new Entry(src, target, st, Placement.OPERAND).kind();
        if (r.announced()) {
            context.outcomes().starting(kind, src, target, null);
        }
        Diagnostic why = r.why();
        if (r.opensSource()) {
            try (java.nio.channels.FileChannel in = java.nio.channels.FileChannel.open(src, java.nio.file.StandardOpenOption.READ)) {
                // readable: the copy's own failure is the one reported
            } catch (IOException e) {
                why = Diagnostic.of("cannot open {0} for reading", src, Diagnostic.reasonOf(e));
            }
        }
        context.outcomes().failed(kind, src, target, why);
    }

    /**
     * A non-directory to a destination written with a trailing slash: never made, reported as GNU cp
     * reports it. False where that is a directory, which the usual checks refuse.
     */
    private boolean refusedSlashed(Path src, Path target, Stat st) {
        SlashedTarget.Probe probe;
        String failure = "";
        try {
            probe = Stat.stat(target).isDirectory() ? SlashedTarget.Probe.DIRECTORY : SlashedTarget.Probe.FAILED;
        } catch (NoSuchFileException e) {
            probe = Stat.lstatOrNull(PathBytes.withoutTrailingSlashes(target)) != null
                    ? SlashedTarget.Probe.DANGLING : SlashedTarget.Probe.ABSENT;
        } catch (IOException e) {
            probe = SlashedTarget.Probe.FAILED;
            failure = Diagnostic.reasonOf(e);
        }
        CopyOptions o = context.options();
        SlashedTarget.Refusal r = SlashedTarget.refusal(src, target, st, o.mode(), o.recursive() && !o.copyContents(), o.force(),
                o.overwrite() == OverwritePolicy.ASK, probe, failure);
        if (r == null) {
            return false;
        }
        report(src, target, st, r);
        return true;
    }

    /**
     * @param src the source as given (a trailing slash makes the kernel follow a link, or insist on a directory)
     * @param target the copy, as given when it is the destination operand itself
     */
    private void startOne(OperandTask operand, Path src, Path target, boolean into) {
        Dereference deref = context.options().effectiveDereference();
        boolean follow = deref != Dereference.NEVER || PathBytes.hasTrailingSlash(src);
        Stat st;
        try {
            if (PathBytes.isEmpty(src)) {
                throw new NoSuchFileException("");
            }
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
        if (!st.isDirectory() && PathBytes.hasTrailingSlash(target) && refusedSlashed(src, target, st)) {
            return;
        }
        if (PathBytes.isEmpty(target)) {
            refuseEmpty(src, target, st);
            return;
        }
        boolean asCopy = !into && st.isDirectory() && (resumingCopy || Stat.lstatOrNull(target) == null);
        if (context.options().fsync()) {
            Path parent = PathBytes.withoutTrailingSlashes(target).toAbsolutePath().getParent();
            if (parent != null) {
                touchedDirectories.add(parent);
            }
        }
        Entry e = new Entry(src, target, st, Placement.OPERAND);
        // A file's destination is decided (asked about, its -v line printed) by its copy's task: the next
        // operand starts once that is done, so that questions and lines come in operand order.
        Runnable decided = operand.deferStart();
        try {
            if (into && operandFiles != null && st.isRegular() && operandFiles.start(operand, e, destinationDirectory, decided)) {
                return;
            }
            dispatch.operand(operand, e, asCopy && !resumingCopy, decided);
        } catch (RuntimeException | Error x) {
            // Never handed on: the operands after this one go on.
            decided.run();
            throw x;
        }
    }
}
