package dev.cpx.core.plan;

import dev.cpx.api.Attribute;
import dev.cpx.api.BackupMode;
import dev.cpx.api.CopyMode;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.Dereference;
import dev.cpx.api.OverwritePolicy;
import dev.cpx.api.TargetMode;
import dev.cpx.core.decide.CreatedKind;
import dev.cpx.core.decide.SlashedTarget;
import dev.cpx.core.decide.Targets;
import dev.cpx.core.fs.PathLimit;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.fs.Umask;
import dev.cpx.core.walk.Excludes;
import dev.cpx.spi.support.PathBytes;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Plans a copy: reads GNU cp's operands once, walks the sources once, and writes the plan directory
 * (see {@link PlanDirectory}). Memory stays flat in the number of files: the walk writes each entry
 * to a listing on disk as it goes (only names of hard-linked files wait in memory, to keep every
 * name of an inode in one chunk), and the listing is then cut into chunks of about equal weight,
 * a chunk's weight being its share of all entries plus its share of all bytes.
 */
public final class Planner {

    private static final String NO_SUCH_FILE = "No such file or directory";

    /** What planning found and wrote. */
    public record Result(int chunks, long entries, long directories, long bytes, long largestChunkEntries,
            long largestChunkBytes, long nanos) {
    }

    private final List<Path> sources;
    /** Where directories are listed relative to open descriptors, in parallel; null: by path, one at a time. */
    private final dev.cpx.spi.Descriptors descriptors;
    private final Path destination;
    private final CopyOptions options;
    private final int chunkTarget;
    private final long leaseMillis;
    private final Excludes excludes;
    private final boolean links;
    /** Regular files larger than this (with one name) are split into ranges of this size; 0: none is. */
    private final long splitSize;
    /** The split files' list, written as the walk goes (see {@link SplitFiles}). */
    private DataOutputStream splitList;
    private long splitFiles;

    private long entries;
    /** Units of the listing the splitter cuts between: single entries, ranges, groups of linked names. */
    private long units;
    private long bytes;
    private long directories;
    private long linkGroups;
    /** Names of hard-linked files by (device, inode), emitted together after the walk. */
    private final Map<List<Long>, List<PlanEntry>> linked = new HashMap<>();

    public Planner(List<Path> sources, Path destination, CopyOptions options, int chunkTarget, long leaseMillis,
            long splitSize) {
        this(sources, destination, options, chunkTarget, leaseMillis, splitSize, dev.cpx.spi.PosixExtras.none());
    }

    /** A planner that lists directories through {@code extras}' descriptors where it has them. */
    public Planner(List<Path> sources, Path destination, CopyOptions options, int chunkTarget, long leaseMillis,
            long splitSize, dev.cpx.spi.PosixExtras extras) {
        this.sources = List.copyOf(sources);
        this.descriptors = extras.descriptors().filter(dev.cpx.spi.Descriptors::opensRelative).orElse(null);
        // --reflink=always asks for a clone of each whole file, which ranges copied apart cannot be.
        this.splitSize = options.reflink() == dev.cpx.api.ReflinkMode.ALWAYS ? 0 : splitSize;
        this.destination = destination;
        this.options = options;
        this.chunkTarget = chunkTarget;
        this.leaseMillis = leaseMillis;
        this.excludes = Excludes.of(options.excludes());
        this.links = options.preserves(Attribute.LINKS);
        if (splitSize < 0) {
            throw new IllegalArgumentException("the split size must not be negative: " + splitSize);
        }
        if (chunkTarget < 1) {
            throw new IllegalArgumentException("the number of chunks must be at least 1: " + chunkTarget);
        }
    }

    /** Options a plan cannot carry out as GNU cp would, as a sentence; null when there is none. */
    static String unsupported(CopyOptions o) {
        if (o.parents()) {
            return "--parents";
        }
        if (o.backup() != BackupMode.NONE) {
            return "--backup";
        }
        if (o.overwrite() == OverwritePolicy.ASK) {
            return "--interactive";
        }
        if (o.mode() != CopyMode.DATA) {
            return "--link, --symbolic-link and --attributes-only";
        }
        if (o.dryRun()) {
            return "--dry-run";
        }
        if (o.removeDestination()) {
            return "--remove-destination";
        }
        return null;
    }

    /** Walks the sources and writes the plan into {@code planDir}, which must not exist or be empty. */
    public Result write(Path planDir) throws IOException {
        long start = System.nanoTime();
        String refused = unsupported(options);
        if (refused != null) {
            throw new IOException(refused + " cannot be used with a plan");
        }
        if (sources.isEmpty()) {
            throw new IOException("missing file operand");
        }
        List<Path> targets = targets();
        boolean made = prepare(planDir);
        try {
            return write(planDir, targets, start);
        } catch (IOException | RuntimeException e) {
            // A plan refused while it is written (a source that cannot be read, -r missing) leaves
            // nothing behind: the same command can be run again once it is corrected.
            discard(planDir, made);
            throw e;
        }
    }

    private Result write(Path planDir, List<Path> targets, long start) throws IOException {
        Properties p = new Properties();
        p.setProperty("version", Integer.toString(PlanDirectory.VERSION));
        p.setProperty("operands", Integer.toString(sources.size()));
        p.setProperty("umask", Integer.toOctalString(Umask.get()));
        p.setProperty("leaseMillis", Long.toString(leaseMillis));
        p.setProperty("chunkTarget", Integer.toString(chunkTarget));
        p.setProperty("splitSize", Long.toString(splitSize));
        p.setProperty("destination", PlanDirectory.base64(destination));
        boolean[] staged = new boolean[sources.size()];
        for (int i = 0; i < sources.size(); i++) {
            p.setProperty("source." + i, PlanDirectory.base64(sources.get(i).toAbsolutePath()));
            p.setProperty("target." + i, PlanDirectory.base64(targets.get(i).toAbsolutePath()));
            p.setProperty("targetFollowed." + i, Boolean.toString(targets.get(i).equals(destination)));
            staged[i] = stages(sources.get(i), targets.get(i));
            p.setProperty("staged." + i, Boolean.toString(staged[i]));
        }
        OptionsCodec.write(options, p);
        PlanDirectory.writeAtomically(planDir.resolve(PlanDirectory.PROPERTIES),
                PlanDirectory.properties(p, "cpx plan: written by cpx --plan; workers run with these options"));

        Path listing = planDir.resolve(".listing");
        try (DataOutputStream list = new DataOutputStream(new Buffered.Output(Files.newOutputStream(listing)));
                DataOutputStream dirs = new DataOutputStream(new Buffered.Output(Files.newOutputStream(planDir.resolve(PlanDirectory.DIRS))));
                DataOutputStream splits = new DataOutputStream(new Buffered.Output(Files.newOutputStream(planDir.resolve(PlanDirectory.SPLITS))))) {
            splitList = splits;
            for (int i = 0; i < sources.size(); i++) {
                Path target = targets.get(i);
                walkOperand(i, sources.get(i), target, staged[i] ? PlanDirectory.staging(target) : target, list, dirs);
            }
            units += linked.size();
            for (List<PlanEntry> group : linked.values()) {
                long id = group.size() > 1 ? ++linkGroups : 0;
                for (PlanEntry e : group) {
                    new PlanEntry(e.operand(), e.name(), e.kind(), e.size(), id).write(list);
                }
            }
            linked.clear();
            PlanEntry.writeEnd(list);
            PlanDirectory.writeEnd(dirs);
            SplitFiles.writeEnd(splits);
        }
        List<Manifest.Chunk> chunks = split(listing, planDir.resolve(PlanDirectory.TODO));
        Files.delete(listing);
        PlanDirectory.writeAtomically(planDir.resolve(PlanDirectory.MANIFEST), PlanDirectory.utf8(Manifest.render(chunks)));
        long maxEntries = chunks.stream().mapToLong(Manifest.Chunk::entries).max().orElse(0);
        long maxBytes = chunks.stream().mapToLong(Manifest.Chunk::bytes).max().orElse(0);
        return new Result(chunks.size(), entries, directories, bytes, maxEntries, maxBytes, System.nanoTime() - start);
    }

    /**
     * Makes the plan directory (mode 0700) and its parts; an existing one must be empty and ours.
     * Returns whether the plan directory itself was made here.
     */
    private static boolean prepare(Path planDir) throws IOException {
        boolean made = Stat.lstatOrNull(planDir) == null;
        if (made) {
            Files.createDirectory(planDir, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
        } else {
            PlanDirectory.checkOwned(planDir, true);
            try (DirectoryStream<Path> s = Files.newDirectoryStream(planDir)) {
                if (s.iterator().hasNext()) {
                    throw new IOException("plan directory " + PlanDirectory.show(planDir) + " is not empty");
                }
            }
        }
        Files.setAttribute(planDir, "unix:mode", 0700);
        for (String d : PlanDirectory.PARTS) {
            Files.createDirectory(planDir.resolve(d));
            Files.setAttribute(planDir.resolve(d), "unix:mode", 0700);
        }
        return made;
    }

    /**
     * Removes what {@link #write} put in the plan directory, which was empty (or not there: then it
     * goes too). Best effort: the refusal is what is reported.
     */
    private static void discard(Path planDir, boolean made) {
        try (java.util.stream.Stream<Path> all = Files.walk(planDir)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                if (made || !p.equals(planDir)) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // what is left says the directory is not empty next time, naming it
        }
    }

    /**
     * Whether the copy of this operand is staged ({@link PlanDirectory#staged}): a directory copied as
     * data into a new tree, whose target and staging name are both free now. Not with {@code --parents}
     * (its copies go into directories made on the way), as on one machine.
     */
    private boolean stages(Path source, Path target) {
        if (options.mode() != CopyMode.DATA || options.parents() || !options.recursive() || options.dryRun()) {
            return false;
        }
        Stat st = followsOperand(source) ? Stat.statOrNull(source) : Stat.lstatOrNull(source);
        return st != null && st.isDirectory() && Stat.lstatOrNull(target) == null
                && Stat.lstatOrNull(PlanDirectory.staging(target)) == null;
    }

    /** Whether the operand {@code source} is looked at through a symbolic link, as GNU cp looks at an operand. */
    private boolean followsOperand(Path source) {
        return options.effectiveDereference() != Dereference.NEVER || PathBytes.hasTrailingSlash(source);
    }

    /** Where each operand goes, by GNU cp's reading of the destination operand. */
    private List<Path> targets() throws IOException {
        // An empty operand names nothing (the kernel's ENOENT), not the working directory as for Java.
        boolean emptyDestination = PathBytes.isEmpty(destination);
        Stat dest = null;
        String failure = NO_SUCH_FILE;
        try {
            dest = emptyDestination ? null : Stat.stat(destination);
        } catch (IOException e) {
            failure = dev.cpx.api.Diagnostic.reasonOf(e);
        }
        // GNU's reading of the destination operand, as a plain copy's (no --resume with a plan).
        Targets.Decision decision = Targets.decide(options.target(), sources.size(), destination, dest, failure, false, () -> false);
        if (decision instanceof Targets.Fail f) {
            throw new IOException(f.why().format(dev.cpx.api.ShellQuote::quote));
        }
        boolean into = decision instanceof Targets.Into;
        if (!into && sources.size() > 1) {
            throw new IOException("extra operand " + PlanDirectory.show(sources.get(1)));
        }
        // (After the destination, as GNU reads them.)
        for (Path s : sources) {
            if (PathBytes.isEmpty(s)) {
                throw new IOException("cannot stat '': " + NO_SUCH_FILE);
            }
        }
        if (emptyDestination) {
            throw new IOException(cannotMakeEmpty(sources.get(0)));
        }
        List<Path> targets = new ArrayList<>();
        for (Path s : sources) {
            Path named = PathBytes.withoutTrailingSlashes(s);
            Path target = into ? PathBytes.withoutTrailingSlashes(destination).resolve(named.getFileName()) : destination;
            Stat st = Stat.statOrNull(s);
            Stat copied = followsOperand(s) ? st : Stat.lstatOrNull(s);
            if (options.recursive() && copied != null && copied.isDirectory()) {
                String refusal = cannotMakeDirectory(s, target);
                if (refusal != null) {
                    throw new IOException(refusal);
                }
            }
            if (st != null && st.isDirectory()) {
                Path realSource = s.toRealPath();
                Path parent = target.toAbsolutePath().getParent();
                Path realTarget = Stat.statOrNull(target) != null ? target.toRealPath()
                        : (parent == null ? target : parent.toRealPath().resolve(target.getFileName()));
                if (realTarget.startsWith(realSource)) {
                    throw new IOException("cannot copy a directory, " + PlanDirectory.show(s) + ", into itself, "
                            + PlanDirectory.show(target));
                }
            }
            targets.add(target);
        }
        return targets;
    }

    /**
     * GNU cp's refusal of the directory operand {@code source} copied to {@code target} where no
     * directory can be made or merged into there (null where one can): a name taken by anything but
     * a directory, a dangling link included ("cannot overwrite non-directory"); "{@code d/}" whose
     * name is taken but which names no directory (mkdir's "File exists"); a path that cannot be
     * looked at. GNU looks at the copy's name without following a link, unless a trailing slash
     * makes the kernel follow it. A plan's workers make directories where the plain copy refuses
     * them one by one, so the planner refuses the copy as a whole, before anything is made.
     */
    private static String cannotMakeDirectory(Path source, Path target) {
        try {
            Stat there = Stat.lstat(target);
            return there.isDirectory() ? null : overwriteNonDirectory(target, source);
        } catch (java.nio.file.NoSuchFileException e) {
            Path named = PathBytes.withoutTrailingSlashes(target);
            return named != target && Stat.lstatOrNull(named) != null
                    ? "cannot create directory " + PlanDirectory.show(target) + ": File exists" : null;
        } catch (IOException e) {
            return "cannot stat " + PlanDirectory.show(target) + ": " + dev.cpx.api.Diagnostic.reasonOf(e);
        }
    }

    /** What GNU cp says of the one copy made as the empty destination {@code ""}, by what the source is. */
    private String cannotMakeEmpty(Path source) throws IOException {
        Stat st;
        try {
            st = Stat.of(source, followsOperand(source));
        } catch (IOException e) {
            throw new IOException("cannot stat " + PlanDirectory.show(source) + ": " + dev.cpx.api.Diagnostic.reasonOf(e));
        }
        if (st.isDirectory()) {
            return options.recursive() ? "cannot create directory '': " + NO_SUCH_FILE
                    : "-r not specified; omitting directory " + PlanDirectory.show(source);
        }
        return SlashedTarget.refusal(source, destination, st, options.mode(), options.recursive() && !options.copyContents(),
                options.force(), false, SlashedTarget.Probe.EMPTY, NO_SUCH_FILE).why().format(dev.cpx.api.ShellQuote::quote);
    }

    /**
     * How far below an operand a plan's entries may go: GNU cp's reach ({@link PathLimit}) from the
     * operand and its copy as given, and the workers', which reach an entry from them made absolute
     * (as the plan stores them; on one machine, or a cluster's with the same paths, the two differ by
     * the working directory's path), the copy where they make it ({@code made}: under its staging
     * name where the tree is staged). Lengths without trailing slashes, as names are joined to them.
     */
    private record Reach(Path source, Path target, Path made, int givenSource, int givenTarget, int absoluteSource,
            int absoluteTarget) {
        static Reach of(Path source, Path target, Path made) {
            Path absoluteMade = made.toAbsolutePath();
            // (Names are joined to each without its trailing slashes: "D/" + "x" is "D/x", as GNU shows it.)
            return new Reach(PathBytes.withoutTrailingSlashes(source), PathBytes.withoutTrailingSlashes(target),
                    PathBytes.withoutTrailingSlashes(absoluteMade), givenBytes(source), givenBytes(target),
                    givenBytes(source.toAbsolutePath()), givenBytes(absoluteMade));
        }

        /** The longest of the four (an absolute path, a staging name, is never shorter than the path as given). */
        int longest() {
            return Math.max(absoluteSource, absoluteTarget);
        }
    }

    /**
     * The refusal of the entry {@code rel} ({@code mode}: its {@code st_mode}) below an operand, where
     * one of its paths reaches {@code PATH_MAX}: beyond GNU cp's reach, the message of the first call
     * {@code cp} of the same operands makes for it and that fails, the source's {@code stat}, else the
     * copy's creation; beyond only the workers' (the absolute paths), the same for the absolute path.
     * A plain copy goes as far as GNU goes and reports the rest; a plan refuses, as it refuses an
     * entry it cannot read, before any worker starts, rather than have its workers copy beyond GNU's
     * reach (they open entries by descriptor, below the operands) or fail at it one chunk at a time.
     */
    private IOException beyondReach(Reach reach, byte[] rel, int mode) {
        boolean given = PathLimit.tooLong(Math.max(reach.givenSource(), reach.givenTarget()), rel.length);
        Path name = PathBytes.path(rel);
        if (PathLimit.tooLong(given ? reach.givenSource() : reach.absoluteSource(), rel.length)) {
            Path source = given ? reach.source() : reach.source().toAbsolutePath();
            return new Refusal("cannot stat " + PlanDirectory.show(source.resolve(name)) + ": " + FILE_NAME_TOO_LONG);
        }
        Path target = given ? reach.target() : reach.made();
        String what = CreatedKind.of(mode & Stat.S_IFMT, options.recursive() && !options.copyContents());
        return new Refusal("cannot create " + what + " " + PlanDirectory.show(target.resolve(name)) + ": " + FILE_NAME_TOO_LONG);
    }

    /**
     * Whether the copy of the directory {@code source}, at {@code copy} in a directory that existed,
     * is there already (a directory, merged into); a non-directory there, a link included, is GNU
     * cp's "cannot overwrite non-directory", which refuses the plan (the workers would fail at each
     * entry below it instead).
     */
    private static boolean copyThere(Path copy, Path source) throws Refusal {
        Stat there = Stat.lstatOrNull(copy);
        if (there != null && !there.isDirectory()) {
            throw new Refusal(overwriteNonDirectory(copy, source));
        }
        return there != null;
    }

    /** GNU cp's words for a directory {@code source} whose copy {@code copy} is a non-directory. */
    private static String overwriteNonDirectory(Path copy, Path source) {
        return "cannot overwrite non-directory " + PlanDirectory.show(copy) + " with directory " + PlanDirectory.show(source);
    }

    /** A refusal whose message is whole (GNU's line for the entry): reported as it is, never wrapped. */
    private static final class Refusal extends IOException {
        private static final long serialVersionUID = 1L;

        Refusal(String message) {
            super(message);
        }
    }

    private static final String FILE_NAME_TOO_LONG = dev.cpx.api.Diagnostic.reasonOf(
            dev.cpx.spi.support.Errno.forName(dev.cpx.spi.support.Errno.ENAMETOOLONG, new byte[0]));

    /** The length in bytes of {@code path} as given, without trailing slashes, as GNU cp joins names to it. */
    private static int givenBytes(Path path) {
        return PathBytes.of(PathBytes.withoutTrailingSlashes(path)).length;
    }

    /** A directory whose contents are still to be read, or (exit) to be listed once they are. */
    private record Frame(Path source, byte[] name, long dev, long ino, Frame parent, boolean exit, boolean existed) {
    }

    /** Lists the operand {@code source} copied to {@code target}, which the workers make at {@code made} (a staging name, or itself). */
    private void walkOperand(int operand, Path source, Path target, Path made, DataOutputStream list, DataOutputStream dirs)
            throws IOException {
        Dereference deref = options.effectiveDereference();
        boolean followOperand = followsOperand(source);
        boolean followInside = deref == Dereference.ALWAYS;
        Stat st;
        try {
            st = Stat.of(source, followOperand);
        } catch (IOException e) {
            throw new IOException("cannot stat " + PlanDirectory.show(source) + ": " + dev.cpx.api.Diagnostic.reasonOf(e));
        }
        if (!st.isDirectory()) {
            emit(new PlanEntry(operand, new byte[0], kind(st), st.isRegular() ? st.size() : 0, 0), st, list);
            return;
        }
        if (!options.recursive()) {
            throw new IOException("-r not specified; omitting directory " + PlanDirectory.show(source));
        }
        Path root = PathBytes.withoutTrailingSlashes(source);
        if (descriptors != null && !followInside) {
            boolean existed = Stat.lstatOrNull(target) != null;
            new ParallelWalk(operand, root, target, Reach.of(root, target, made), st, existed, list, dirs).run();
            return;
        }
        long rootDev = st.dev();
        Reach reach = Reach.of(root, target, made);
        int longest = reach.longest();
        Deque<Frame> stack = new ArrayDeque<>();
        stack.push(new Frame(root, new byte[0], st.dev(), st.ino(), null, false, Stat.lstatOrNull(target) != null));
        while (!stack.isEmpty()) {
            Frame f = stack.pop();
            if (f.exit()) {
                PlanDirectory.writeDir(dirs, operand, f.name(), f.existed());
                directories++;
                continue;
            }
            stack.push(new Frame(f.source(), f.name(), f.dev(), f.ino(), f.parent(), true, f.existed()));
            if (options.oneFileSystem() && f.dev() != rootDev) {
                continue;
            }
            Path targetDir = f.name().length == 0 ? target : target.resolve(PathBytes.path(f.name()));
            try (DirectoryStream<Path> children = Files.newDirectoryStream(f.source())) {
                for (Path child : children) {
                    Path name = child.getFileName();
                    byte[] rel = PlanNames.join(f.name(), PathBytes.of(name));
                    Path relative = PathBytes.path(rel);
                    if (excludes.excludesAnyEntry(name, relative)) {
                        continue;
                    }
                    Stat cs;
                    try {
                        cs = Stat.of(child, followInside);
                    } catch (IOException e) {
                        throw new Refusal("cannot stat " + PlanDirectory.show(child) + ": " + dev.cpx.api.Diagnostic.reasonOf(e));
                    }
                    if (PathLimit.tooLong(longest, rel.length)) {
                        throw beyondReach(reach, rel, cs.mode());
                    }
                    if (cs.isDirectory()) {
                        if (excludes.excludesDirectory(name, relative)) {
                            continue;
                        }
                        for (Frame a = f; a != null; a = a.parent()) {
                            if (a.dev() == cs.dev() && a.ino() == cs.ino()) {
                                // (Met again through a link -L follows: GNU's words; else a bind mount.)
                                throw new Refusal(followInside ? "cannot copy cyclic symbolic link " + PlanDirectory.show(child)
                                        : "directory loop at " + PlanDirectory.show(child));
                            }
                        }
                        boolean existed = copyThere(targetDir.resolve(name), child);
                        stack.push(new Frame(child, rel, cs.dev(), cs.ino(), f, false, existed));
                    } else {
                        emit(new PlanEntry(operand, rel, kind(cs), cs.isRegular() ? cs.size() : 0, 0), cs, list);
                    }
                }
            } catch (Refusal e) {
                throw e;
            } catch (IOException e) {
                throw new IOException("cannot access " + PlanDirectory.show(f.source()) + ": " + dev.cpx.api.Diagnostic.reasonOf(e));
            }
        }
    }

    /**
     * The walk of one directory operand relative to open descriptors, in parallel: each directory is
     * opened relative to its parent's descriptor ({@code openat(O_NOFOLLOW)}), listed with
     * {@code getdents64}, and each entry stat'ed relative to it ({@code fstatat}), by a pool of
     * {@link CopyOptions#jobs()} threads (a shared file system's latency is hidden by more requests in
     * flight). A directory's entries go to the listing together; a directory goes to the list of
     * directories once its whole subtree has been walked (children before parents, as finish needs).
     */
    private final class ParallelWalk {
        private final int operand;
        private final Path root;
        private final Path target;
        private final Stat rootStat;
        private final boolean rootExisted;
        private final DataOutputStream list;
        private final DataOutputStream dirs;
        private final java.util.concurrent.atomic.AtomicReference<IOException> failure = new java.util.concurrent.atomic.AtomicReference<>();
        private final Reach reach;
        /** {@link Reach#longest}: one comparison per entry. */
        private final int longest;

        ParallelWalk(int operand, Path root, Path target, Reach reach, Stat rootStat, boolean rootExisted, DataOutputStream list,
                DataOutputStream dirs) {
            this.operand = operand;
            this.root = root;
            this.target = target;
            this.rootStat = rootStat;
            this.rootExisted = rootExisted;
            this.list = list;
            this.dirs = dirs;
            this.reach = reach;
            this.longest = reach.longest();
        }

        void run() throws IOException {
            int fd;
            try {
                fd = descriptors.openDirectory(root);
            } catch (IOException e) {
                throw new IOException("cannot access " + PlanDirectory.show(root) + ": " + dev.cpx.api.Diagnostic.reasonOf(e));
            }
            java.util.concurrent.ForkJoinPool pool = new java.util.concurrent.ForkJoinPool(Math.max(1, options.jobs()));
            try {
                pool.invoke(new DirTask(null, null, new byte[0], fd, rootStat.dev(), rootStat.ino(), rootExisted));
            } finally {
                pool.shutdown();
            }
            IOException e = failure.get();
            if (e != null) {
                throw e;
            }
        }

        private Path sourceOf(byte[] rel) {
            return rel.length == 0 ? root : root.resolve(PathBytes.path(rel));
        }

        /** One directory: listed, its entries emitted, its subdirectories forked; done when they all are. */
        private final class DirTask extends java.util.concurrent.CountedCompleter<Void> {
            private final DirTask parentDir;
            private final byte[] name;
            private final byte[] rel;
            /** The directory's descriptor, open while its subdirectories are being opened relative to it. */
            private int fd;
            private final long device;
            private final long ino;
            private final boolean existed;
            /** One per subdirectory not yet opened, one for the listing itself: the descriptor closes at 0. */
            private final java.util.concurrent.atomic.AtomicInteger opens = new java.util.concurrent.atomic.AtomicInteger(1);

            DirTask(DirTask parentDir, byte[] name, byte[] rel, int fd, long dev, long ino, boolean existed) {
                super(parentDir);
                this.parentDir = parentDir;
                this.name = name;
                this.rel = rel;
                this.fd = fd;
                this.device = dev;
                this.ino = ino;
                this.existed = existed;
            }

            private void release() {
                if (opens.decrementAndGet() == 0) {
                    descriptors.close(fd);
                }
            }

            @Override
            public void compute() {
                try {
                    if (parentDir != null) {
                        try {
                            if (failure.get() == null) {
                                fd = descriptors.openDirectory(parentDir.fd, name, false);
                            }
                        } catch (IOException e) {
                            throw new IOException("cannot access " + PlanDirectory.show(sourceOf(rel)) + ": "
                                    + dev.cpx.api.Diagnostic.reasonOf(e));
                        } finally {
                            parentDir.release();
                        }
                    }
                    if (failure.get() == null) {
                        walk();
                    }
                } catch (IOException e) {
                    failure.compareAndSet(null, e);
                } finally {
                    release();
                }
                tryComplete();
            }

            private void walk() throws IOException {
                if (options.oneFileSystem() && device != rootStat.dev()) {
                    return;
                }
                dev.cpx.spi.DirectoryEntries entries = new dev.cpx.spi.DirectoryEntries();
                try {
                    descriptors.readDirectory(fd, entries);
                } catch (IOException e) {
                    throw new IOException("cannot access " + PlanDirectory.show(sourceOf(rel)) + ": " + dev.cpx.api.Diagnostic.reasonOf(e));
                }
                int n = entries.size();
                List<PlanEntry> found = new ArrayList<>(n);
                List<dev.cpx.spi.FileStatus> stats = new ArrayList<>(n);
                Path targetDir = null;
                for (int i = 0; i < n; i++) {
                    byte[] childName = entries.name(i);
                    byte[] childRel = PlanNames.join(rel, childName);
                    Path nameP = null;
                    Path relative = null;
                    if (!excludes.isEmpty()) {
                        nameP = PathBytes.path(childName);
                        relative = PathBytes.path(childRel);
                        if (excludes.excludesAnyEntry(nameP, relative)) {
                            continue;
                        }
                    }
                    dev.cpx.spi.FileStatus cs;
                    try {
                        cs = descriptors.status(fd, childName);
                    } catch (IOException e) {
                        throw new IOException("cannot stat " + PlanDirectory.show(sourceOf(childRel)) + ": " + dev.cpx.api.Diagnostic.reasonOf(e));
                    }
                    if (PathLimit.tooLong(longest, childRel.length)) {
                        throw beyondReach(reach, childRel, cs.mode());
                    }
                    int type = cs.mode() & Stat.S_IFMT;
                    if (type == Stat.S_IFDIR) {
                        if (!excludes.isEmpty() && excludes.excludesDirectory(nameP, relative)) {
                            continue;
                        }
                        for (DirTask a = this; a != null; a = a.parentDir) {
                            if (a.device == cs.dev() && a.ino == cs.ino()) {
                                throw new IOException("directory loop at " + PlanDirectory.show(sourceOf(childRel)));
                            }
                        }
                        boolean childExisted = false;
                        if (existed) {
                            if (targetDir == null) {
                                targetDir = rel.length == 0 ? target : target.resolve(PathBytes.path(rel));
                            }
                            childExisted = copyThere(targetDir.resolve(PathBytes.path(childName)), sourceOf(childRel));
                        }
                        opens.incrementAndGet();
                        addToPendingCount(1);
                        new DirTask(this, childName, childRel, -1, cs.dev(), cs.ino(), childExisted).fork();
                    } else {
                        byte kind = kind(cs.mode());
                        found.add(new PlanEntry(operand, childRel, kind, kind == PlanEntry.FILE ? cs.size() : 0, 0));
                        stats.add(cs);
                    }
                }
                synchronized (Planner.this) {
                    for (int i = 0; i < found.size(); i++) {
                        dev.cpx.spi.FileStatus cs = stats.get(i);
                        emit(found.get(i), cs.nlink(), cs.dev(), cs.ino(), list);
                    }
                }
            }

            @Override
            public void onCompletion(java.util.concurrent.CountedCompleter<?> caller) {
                synchronized (Planner.this) {
                    try {
                        PlanDirectory.writeDir(dirs, operand, rel, existed);
                        directories++;
                    } catch (IOException e) {
                        failure.compareAndSet(null, e);
                    }
                }
            }
        }
    }

    private static byte kind(Stat st) {
        return kind(st.mode());
    }

    /** The plan's kind of an entry of this {@code st_mode} (not a directory). */
    private static byte kind(int mode) {
        int type = mode & Stat.S_IFMT;
        return type == Stat.S_IFREG ? PlanEntry.FILE : type == Stat.S_IFLNK ? PlanEntry.SYMLINK : PlanEntry.SPECIAL;
    }

    private void emit(PlanEntry e, Stat st, DataOutputStream list) throws IOException {
        emit(e, st.nlink(), st.dev(), st.ino(), list);
    }

    /** Writes {@code e}, of an inode with these link count, device and number, to the listing (see the class's text). */
    private void emit(PlanEntry e, long nlink, long dev, long ino, DataOutputStream list) throws IOException {
        entries++;
        if (links && nlink > 1 && e.name().length > 0) {
            List<PlanEntry> group = linked.computeIfAbsent(List.of(dev, ino), k -> new ArrayList<>(2));
            if (group.isEmpty()) {
                bytes += e.size();
            }
            group.add(e);
            return;
        }
        bytes += e.size();
        if (e.kind() == PlanEntry.FILE && nlink == 1 && splitSize > 0 && e.size() > splitSize) {
            // A big file: ranges that different workers copy into one staging file (see SplitFiles).
            long id = ++splitFiles;
            int count = (int) Math.min(Integer.MAX_VALUE, (e.size() + splitSize - 1) / splitSize);
            long each = (e.size() + count - 1) / count;
            SplitFiles.write(splitList, new SplitFiles.Split(id, e.operand(), e.name(), e.size(), count));
            units += count;
            for (int i = 0; i < count; i++) {
                long offset = i * each;
                new PlanEntry(e.operand(), e.name(), PlanEntry.RANGE, e.size(), 0,
                        new PlanEntry.Range(id, i, count, offset, Math.min(each, e.size() - offset))).write(list);
            }
            return;
        }
        units++;
        e.write(list);
    }

    /**
     * Cuts the listing into about {@link #chunkTarget} chunks of equal weight (share of entries plus
     * share of bytes), never between two names of one hard-linked inode; exactly that many where
     * there are as many units (a heavy unit late in the listing would otherwise cross two thresholds
     * at once and leave a chunk out).
     */
    private List<Manifest.Chunk> split(Path listing, Path todo) throws IOException {
        Splitter splitter = new Splitter(todo, (bytes == 0 ? 1.0 : 2.0) / chunkTarget, chunkTarget, units);
        try (DataInputStream in = new DataInputStream(new Buffered.Input(Files.newInputStream(listing)))) {
            PlanEntry e = PlanEntry.read(in);
            while (e != null) {
                // One unit: an entry, or every name of a hard-linked inode.
                List<PlanEntry> unit = new ArrayList<>(1);
                unit.add(e);
                e = PlanEntry.read(in);
                while (e != null && unit.get(0).linkGroup() != 0 && e.linkGroup() == unit.get(0).linkGroup()) {
                    unit.add(e);
                    e = PlanEntry.read(in);
                }
                splitter.add(unit);
            }
        }
        return splitter.end();
    }

    /**
     * The chunks being cut, one unit at a time: a method per unit rather than the body of one long
     * loop, which the JVM would run interpreted until its on-stack replacement (some 60,000 turns).
     */
    private final class Splitter {
        private final Path todo;
        private final double perChunk;
        private final List<Manifest.Chunk> chunks = new ArrayList<>();
        private final int target;
        private long unitsLeft;
        private double total;
        private ChunkWriter current;

        Splitter(Path todo, double perChunk, int target, long units) {
            this.todo = todo;
            this.perChunk = perChunk;
            this.target = target;
            this.unitsLeft = units;
        }

        void add(List<PlanEntry> unit) throws IOException {
            PlanEntry.Range range = unit.get(0).range();
            long unitBytes = range != null ? range.length() : unit.get(0).size();
            if (current != null && range != null && current.lastSplit == range.file()) {
                // Ranges of one file go to different chunks, so different workers copy them.
                chunks.add(current.close());
                current = null;
            }
            double weight = (range != null ? 1.0 / range.count() : unit.size()) / Math.max(1, entries)
                    + (bytes == 0 ? 0 : (double) unitBytes / bytes);
            if (current == null) {
                current = new ChunkWriter(todo, chunks.size() + 1);
            }
            for (PlanEntry u : unit) {
                current.add(u);
            }
            current.lastSplit = range != null ? range.file() : 0;
            current.bytes += unitBytes;
            total += weight;
            unitsLeft--;
            if (total >= perChunk * (chunks.size() + 1) - 1e-12
                    || chunks.size() + 1 < target && unitsLeft < target - chunks.size()) {
                chunks.add(current.close());
                current = null;
            }
        }

        List<Manifest.Chunk> end() throws IOException {
            if (current != null) {
                chunks.add(current.close());
                current = null;
            }
            return chunks;
        }
    }

    /** One chunk file being written, with its checksum (see {@link Manifest}). */
    private static final class ChunkWriter {
        private final String name;
        private final java.util.zip.CRC32C digest = new java.util.zip.CRC32C();
        private final DataOutputStream out;
        long entries;
        long bytes;
        /** The split file whose range was added last, 0 for none. */
        long lastSplit;

        ChunkWriter(Path todo, int number) throws IOException {
            // "%08d" without String.format, whose first use loads the JDK's locale data (~10 ms).
            String digits = Integer.toString(number);
            this.name = "0".repeat(Math.max(0, 8 - digits.length())) + digits;
            OutputStream file = Files.newOutputStream(todo.resolve(name));
            out = new DataOutputStream(new Buffered.Output(new java.util.zip.CheckedOutputStream(file, digest)));
        }

        void add(PlanEntry e) throws IOException {
            e.write(out);
            entries++;
        }

        Manifest.Chunk close() throws IOException {
            PlanEntry.writeEnd(out);
            out.close();
            return new Manifest.Chunk(name, entries, bytes, (int) digest.getValue());
        }
    }
}
