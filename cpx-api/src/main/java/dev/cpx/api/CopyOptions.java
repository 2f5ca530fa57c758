package dev.cpx.api;

import dev.cpx.spi.SparseMode;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything that shapes one copy, immutable. Build with {@link #builder()}; the defaults are GNU
 * cp's defaults (no recursion, nothing preserved beyond the umask-masked mode, {@code --reflink=auto},
 * {@code --sparse=auto}).
 *
 * @param recursive {@code -r}: copy directories and their contents
 * @param dereference which symbolic links are followed; null means GNU's default for {@code recursive}
 * @param preserve attributes kept ({@code -p}, {@code --preserve}, {@code -a})
 * @param overwrite what to do with existing destination files
 * @param update {@code -u}: replace a destination only when the source is newer
 * @param force {@code -f}: remove a destination that cannot be opened, then retry
 * @param removeDestination remove each existing destination before copying onto it
 * @param backup backup of replaced destinations
 * @param backupSuffix suffix of simple backups
 * @param mode what to make for non-directories (copy, hard link, symbolic link, attributes only)
 * @param attributesOnly {@code --attributes-only}: no file data is copied. True with the mode
 *     {@link CopyMode#ATTRIBUTES_ONLY}; given with {@code -l} or {@code -s} (a link is made, so it changes
 *     what is made in no other way), an existing destination is left for the link to fail on rather than
 *     removed first, as GNU cp leaves it when no data is to be copied
 * @param target how the destination operand is read ({@code -t}, {@code -T})
 * @param parents {@code --parents}: append the source's path to the target directory
 * @param oneFileSystem {@code -x}: do not descend into other file systems
 * @param sparse hole handling
 * @param reflink extent sharing
 * @param copyContents {@code --copy-contents}: read special files as data when recursive
 * @param engine engine id, or {@code auto}
 * @param jobs worker threads (at least 1)
 * @param maxJobs worker threads at most: more than {@code jobs} run only while workers wait on the disk
 *     (a cold cache), so more reads are in flight where the disk, not the CPU, is what they wait for;
 *     equal to {@code jobs} (raised to it when less): exactly {@code jobs}
 * @param rangeSize files of at least twice this many bytes are copied as ranges of this size by
 *     several workers at once, so one large file does not leave the others idle; 0 copies every file
 *     whole; else at least {@link #MIN_RANGE_SIZE}
 * @param excludes glob patterns of entries not to copy
 * @param resume skip complete destination files and continue partial ones
 * @param verify read back and compare each copied file
 * @param dryRun report what would be done, touch nothing
 * @param fsync make data and directories durable before returning
 * @param xattrFailures what a failure to copy an extended attribute comes to
 * @param writeThroughDanglingSymlinks create a new file through a dangling destination symlink (GNU cp
 *     does when {@code POSIXLY_CORRECT} is set) instead of refusing to
 * @param defaultModes {@code --no-preserve=mode}: new entries get the default permissions (0666 for
 *     files, 0777 for directories, less the umask) rather than the source's
 */
public record CopyOptions(
        boolean recursive,
        Dereference dereference,
        Set<Attribute> preserve,
        OverwritePolicy overwrite,
        boolean update,
        boolean force,
        boolean removeDestination,
        BackupMode backup,
        String backupSuffix,
        CopyMode mode,
        boolean attributesOnly,
        TargetMode target,
        boolean parents,
        boolean oneFileSystem,
        SparseMode sparse,
        ReflinkMode reflink,
        boolean copyContents,
        String engine,
        int jobs,
        int maxJobs,
        long rangeSize,
        List<String> excludes,
        boolean resume,
        boolean verify,
        boolean dryRun,
        boolean fsync,
        boolean defaultModes,
        boolean writeThroughDanglingSymlinks,
        XattrFailures xattrFailures) {

    /** The smallest {@link #rangeSize()} other than 0. */
    public static final long MIN_RANGE_SIZE = 64 << 10;

    /** The engine id that picks the best available engine. */
    public static final String AUTO_ENGINE = "auto";

    public CopyOptions {
        preserve = preserve.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(preserve));
        Objects.requireNonNull(overwrite, "overwrite");
        Objects.requireNonNull(backup, "backup");
        Objects.requireNonNull(backupSuffix, "backupSuffix");
        Objects.requireNonNull(mode, "mode");
        attributesOnly |= mode == CopyMode.ATTRIBUTES_ONLY;
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(sparse, "sparse");
        Objects.requireNonNull(reflink, "reflink");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(xattrFailures, "xattrFailures");
        excludes = List.copyOf(excludes);
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs must be at least 1: " + jobs);
        }
        maxJobs = Math.max(maxJobs, jobs);
        if (rangeSize != 0 && rangeSize < MIN_RANGE_SIZE) {
            throw new IllegalArgumentException("rangeSize must be 0 or at least " + MIN_RANGE_SIZE + ": " + rangeSize);
        }
    }

    /**
     * The dereference mode in effect: the explicit one, else as GNU cp: {@code -P} when recursive
     * (unless making hard links, which follow links), {@code -L} otherwise.
     */
    public Dereference effectiveDereference() {
        if (dereference != null) {
            return dereference;
        }
        return recursive && mode != CopyMode.HARD_LINK ? Dereference.NEVER : Dereference.ALWAYS;
    }

    /**
     * Whether copies may share the source's extents: not with {@code --reflink=never}, where GNU cp
     * writes the data itself (the kernel's copy_file_range makes a reflink where it can).
     */
    public boolean mayShareExtents() {
        return reflink != ReflinkMode.NEVER;
    }

    public boolean preserves(Attribute attribute) {
        return preserve.contains(attribute);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.recursive = recursive;
        b.dereference = dereference;
        b.preserve = preserve.isEmpty() ? EnumSet.noneOf(Attribute.class) : EnumSet.copyOf(preserve);
        b.overwrite = overwrite;
        b.update = update;
        b.force = force;
        b.removeDestination = removeDestination;
        b.backup = backup;
        b.backupSuffix = backupSuffix;
        b.mode = mode;
        b.attributesOnly = attributesOnly;
        b.target = target;
        b.parents = parents;
        b.oneFileSystem = oneFileSystem;
        b.sparse = sparse;
        b.reflink = reflink;
        b.copyContents = copyContents;
        b.engine = engine;
        b.jobs = jobs;
        b.maxJobs = maxJobs;
        b.rangeSize = rangeSize;
        b.excludes = excludes;
        b.resume = resume;
        b.verify = verify;
        b.dryRun = dryRun;
        b.fsync = fsync;
        b.defaultModes = defaultModes;
        b.writeThroughDanglingSymlinks = writeThroughDanglingSymlinks;
        b.xattrFailures = xattrFailures;
        return b;
    }

    /**
     * Default {@link #rangeSize()}: 64 MiB, so a file of 128 MiB or more is shared among the
     * workers. The system property {@code cpx.rangeSize} (bytes; 0 turns splitting off) overrides
     * it, for benchmarks that compare both (a value that is not a valid range size is ignored).
     */
    public static long defaultRangeSize() {
        long standard = 64L << 20;
        long v = Long.getLong("cpx.rangeSize", standard);
        return v == 0 || v >= MIN_RANGE_SIZE ? v : standard;
    }

    /** Default number of workers: see docs/performance.md ("Choosing -j") for the measurements behind it. */
    public static int defaultJobs() {
        return Math.max(4, Runtime.getRuntime().availableProcessors() * 2);
    }

    /**
     * Default {@link #maxJobs()} when {@code -j} is not given: {@code max(16, 2 × defaultJobs())}, from
     * cold-cache copies on the root file system (docs/performance.md, "Choosing -j").
     */
    public static int defaultMaxJobs() {
        return Math.max(16, 2 * defaultJobs());
    }

    /** Mutable builder of {@link CopyOptions}. */
    public static final class Builder {
        private boolean recursive;
        private Dereference dereference;
        private EnumSet<Attribute> preserve = EnumSet.noneOf(Attribute.class);
        private OverwritePolicy overwrite = OverwritePolicy.OVERWRITE;
        private boolean update;
        private boolean force;
        private boolean removeDestination;
        private BackupMode backup = BackupMode.NONE;
        private String backupSuffix = "~";
        private CopyMode mode = CopyMode.DATA;
        private boolean attributesOnly;
        private TargetMode target = TargetMode.AUTO;
        private boolean parents;
        private boolean oneFileSystem;
        private SparseMode sparse = SparseMode.AUTO;
        private ReflinkMode reflink = ReflinkMode.AUTO;
        private boolean copyContents;
        private String engine = AUTO_ENGINE;
        private int jobs = defaultJobs();
        /** 0: {@link #defaultMaxJobs()}, or exactly {@code jobs} once {@link #jobs(int)} set them. */
        private int maxJobs;
        private boolean jobsSet;
        private long rangeSize = defaultRangeSize();
        private List<String> excludes = List.of();
        private boolean resume;
        private boolean verify;
        private boolean dryRun;
        private boolean fsync;
        private boolean defaultModes;
        private boolean writeThroughDanglingSymlinks;
        private XattrFailures xattrFailures = XattrFailures.REPORTED;

        private Builder() {
        }

        public Builder recursive(boolean v) { recursive = v; return this; }
        public Builder dereference(Dereference v) { dereference = v; return this; }
        public Builder preserve(Set<Attribute> v) { preserve = v.isEmpty() ? EnumSet.noneOf(Attribute.class) : EnumSet.copyOf(v); return this; }
        public Builder preserve(Attribute... v) { preserve.addAll(List.of(v)); return this; }
        public Builder overwrite(OverwritePolicy v) { overwrite = v; return this; }
        public Builder update(boolean v) { update = v; return this; }
        public Builder force(boolean v) { force = v; return this; }
        public Builder removeDestination(boolean v) { removeDestination = v; return this; }
        public Builder backup(BackupMode v) { backup = v; return this; }
        public Builder backupSuffix(String v) { backupSuffix = v; return this; }
        public Builder mode(CopyMode v) { mode = v; return this; }
        /** {@code --attributes-only} beside {@code -l} or {@code -s} (see {@link CopyOptions#attributesOnly()}). */
        public Builder attributesOnly(boolean v) { attributesOnly = v; return this; }
        public Builder target(TargetMode v) { target = v; return this; }
        public Builder parents(boolean v) { parents = v; return this; }
        public Builder oneFileSystem(boolean v) { oneFileSystem = v; return this; }
        public Builder sparse(SparseMode v) { sparse = v; return this; }
        public Builder reflink(ReflinkMode v) { reflink = v; return this; }
        public Builder copyContents(boolean v) { copyContents = v; return this; }
        public Builder engine(String v) { engine = v; return this; }
        /** Exactly {@code v} workers (unless {@link #maxJobs(int)} allows more). */
        public Builder jobs(int v) { jobs = v; jobsSet = true; return this; }
        /** At most {@code v} workers while they wait on the disk (see {@link CopyOptions#maxJobs()}). */
        public Builder maxJobs(int v) { maxJobs = v; return this; }
        public Builder rangeSize(long v) { rangeSize = v; return this; }
        public Builder excludes(List<String> v) { excludes = v; return this; }
        public Builder resume(boolean v) { resume = v; return this; }
        public Builder verify(boolean v) { verify = v; return this; }
        public Builder dryRun(boolean v) { dryRun = v; return this; }
        public Builder fsync(boolean v) { fsync = v; return this; }
        public Builder defaultModes(boolean v) { defaultModes = v; return this; }
        public Builder writeThroughDanglingSymlinks(boolean v) { writeThroughDanglingSymlinks = v; return this; }
        public Builder xattrFailures(XattrFailures v) { xattrFailures = v; return this; }

        public CopyOptions build() {
            return new CopyOptions(recursive, dereference, preserve, overwrite, update, force, removeDestination, backup,
                    backupSuffix, mode, attributesOnly, target, parents, oneFileSystem, sparse, reflink, copyContents, engine, jobs,
                    maxJobs != 0 ? maxJobs : jobsSet ? jobs : Math.max(jobs, defaultMaxJobs()), rangeSize,
                    excludes, resume, verify, dryRun, fsync, defaultModes, writeThroughDanglingSymlinks,
                    xattrFailures);
        }
    }
}
