package dev.cpx.core.fs;

import dev.cpx.spi.Descriptors;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The directories of a run held open, by the path they are reported under, so that every name
 * below a command-line operand is reached relative to the descriptor of the directory it is in,
 * never by its whole path resolved again from the top: a directory renamed, or swapped for a
 * symbolic link, while the copy runs cannot redirect it (docs/security.md).
 *
 * <p>A directory being copied ({@code DirectoryTask}) opens its source and its copy relative to its
 * parent's ({@link #open}), and they stay {@link #hold held} until everything below them is done. A
 * path whose directory is held is reached through that directory's descriptor: by the
 * {@code *at} calls where there are some for it, else through {@code /proc/self/fd/N/NAME}, which
 * the kernel resolves from the open directory itself ({@link #at}). A path above every held
 * directory (a command-line operand, and what leads to it) is resolved as given, as GNU cp
 * resolves it. Without descriptor operations that open relative ({@link Descriptors#opensRelative()})
 * every path is resolved as given.
 */
public final class Anchors {

    /** An operation on a path. */
    @FunctionalInterface
    public interface PathOperation<T> {
        T apply(Path path) throws IOException;
    }

    /**
     * A held directory: one side of a pair. A class with its equality written out, not a record: a
     * record's {@code equals} is linked at its first call ({@code ObjectMethods}), which spins some 25
     * method handle classes outside the class data sharing archive on every run, about 40 ms of a
     * small copy.
     */
    private static final class Held {
        private final DirectoryPair pair;
        private final boolean source;

        Held(DirectoryPair pair, boolean source) {
            this.pair = pair;
            this.source = source;
        }

        DirectoryPair pair() {
            return pair;
        }

        int fd() {
            return source ? pair.source() : pair.target();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Held h && h.pair == pair && h.source == source;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(pair) * 2 + (source ? 1 : 0);
        }
    }

    private static final Anchors NONE = new Anchors(null);

    /** Null: none held, every path as given. */
    private final Descriptors descriptors;
    private final ConcurrentHashMap<Path, Held> held;
    /** Copies being made under a staging name: the final path, and where it is made until renamed. */
    private final ConcurrentHashMap<Path, Path> staged = new ConcurrentHashMap<>();

    private Anchors(Descriptors descriptors) {
        this.descriptors = descriptors;
        this.held = descriptors == null ? null : new ConcurrentHashMap<>();
    }

    /** Anchors through {@code descriptors} where they open relative; else none. */
    public static Anchors of(Descriptors descriptors) {
        return descriptors != null && descriptors.opensRelative() ? new Anchors(descriptors) : NONE;
    }

    /** No directory is ever held: every path is resolved as given. */
    public static Anchors none() {
        return NONE;
    }

    /** Whether directories are held (else every path is resolved as given). */
    public boolean active() {
        return descriptors != null;
    }

    public Descriptors descriptors() {
        return descriptors;
    }

    /**
     * Opens the source directory {@code source} to read and its copy {@code target} to make entries
     * in, each relative to its parent's descriptor where that is held (following a symbolic link only
     * where {@code followSource}/{@code followTarget} say), else by its path as given; null where
     * there are no descriptor operations. Fails where either cannot be opened, a symbolic link put
     * in the place of a directory included ({@link OpenFailure} says which). The pair is not held
     * until {@link #hold}.
     */
    public DirectoryPair open(Path source, Path target, boolean followSource, boolean followTarget) throws IOException {
        return open(source, target, followSource, followTarget, null);
    }

    /**
     * {@link #open(Path, Path, boolean, boolean)}, the copy opened by {@code stagedAs} instead where
     * it is given: the staging name the copy of an operand is made under (see
     * {@link DirectoryPair#staged()}), next to {@code target}. The pair is staged then, or where the
     * copy is opened inside a staged directory.
     */
    public DirectoryPair open(Path source, Path target, boolean followSource, boolean followTarget, Path stagedAs)
            throws IOException {
        if (descriptors == null) {
            return null;
        }
        Path from = PathBytes.withoutTrailingSlashes(source);
        Path into = PathBytes.withoutTrailingSlashes(target);
        DirectoryPair.Origin[] origins = new DirectoryPair.Origin[2];
        int s;
        try {
            s = openSide(from, true, followSource, origins);
        } catch (IOException e) {
            throw new OpenFailure(source, true, e);
        }
        try {
            if (stagedAs != null) {
                return DirectoryPair.of(descriptors, s, openSide(PathBytes.withoutTrailingSlashes(stagedAs), false, false, origins), true);
            }
            Held parent = into.getParent() == null ? null : held.get(into.getParent());
            boolean staged = parent != null && parent.pair().staged();
            int t = openSide(into, false, followTarget, origins);
            return DirectoryPair.of(descriptors, s, t, staged, origins[0], origins[1]);
        } catch (IOException e) {
            descriptors.close(s);
            throw new OpenFailure(target, false, e);
        } catch (RuntimeException e) {
            descriptors.close(s);
            throw e;
        }
    }

    /**
     * Opens a source root {@code sourceRoot} to read and its copy's {@code targetRoot} to make entries
     * in, each by its path as given (as command-line operands are): what {@link #openBelow} opens
     * directories from. Null where there are no descriptor operations.
     */
    public DirectoryPair openRoots(Path sourceRoot, Path targetRoot) throws IOException {
        if (descriptors == null) {
            return null;
        }
        return pair(sourceRoot, () -> descriptors.openDirectory(PathBytes.withoutTrailingSlashes(sourceRoot)), targetRoot,
                () -> descriptors.openDirectoryToWrite(PathBytes.withoutTrailingSlashes(targetRoot)), false);
    }

    /**
     * Opens the source directory {@code source} to read and its copy {@code target} to make entries
     * in, below the roots {@code roots} holds ({@link #openRoots} of {@code sourceRoot} and
     * {@code targetRoot}), as a walk from the roots would open them: never through a symbolic link in
     * the copy's path, and in the source's only where {@code followSource} says; in one call each
     * where the kernel has {@code openat2} ({@link Descriptors#openDirectoryBeneath}), else one name
     * at a time. For entries given by their paths below their operands (a plan's), whose directories
     * no walk holds. Fails where either cannot be opened, a link put in the place of a directory
     * included ({@link OpenFailure} says which). The pair is not held until {@link #hold}.
     */
    public DirectoryPair openBelow(DirectoryPair roots, Path sourceRoot, Path source, boolean followSource, Path targetRoot,
            Path target, boolean staged) throws IOException {
        return pair(source, () -> openBelow(roots.source(), sourceRoot, source, true, followSource), target,
                () -> openBelow(roots.target(), targetRoot, target, false, false), staged);
    }

    /** One side of a pair opened by {@link #pair}. */
    @FunctionalInterface
    private interface Side {
        int open() throws IOException;
    }

    /** The source side, then the copy's (the source's closed where that fails); {@link OpenFailure} says which failed. */
    private DirectoryPair pair(Path source, Side sourceSide, Path target, Side targetSide, boolean staged) throws IOException {
        int s;
        try {
            s = sourceSide.open();
        } catch (IOException e) {
            throw new OpenFailure(source, true, e);
        }
        try {
            return DirectoryPair.of(descriptors, s, targetSide.open(), staged);
        } catch (IOException e) {
            descriptors.close(s);
            throw new OpenFailure(target, false, e);
        } catch (RuntimeException e) {
            descriptors.close(s);
            throw e;
        }
    }

    private static final byte[] DOT = {'.'};

    private int openBelow(int rootFd, Path root, Path dir, boolean source, boolean follow) throws IOException {
        Path from = PathBytes.withoutTrailingSlashes(root);
        Path to = PathBytes.withoutTrailingSlashes(dir);
        if (!to.startsWith(from)) {
            throw new IllegalArgumentException(to + " is not below " + from);
        }
        Step step = (at, name) -> source ? descriptors.openDirectory(at, name, follow) : descriptors.openDirectoryToWrite(at, name, false);
        if (to.equals(from)) {
            return step.open(rootFd, DOT);
        }
        List<byte[]> names = new java.util.ArrayList<>();
        for (Path name : from.relativize(to)) {
            names.add(PathBytes.of(name));
        }
        return openWay(descriptors, rootFd, names, !(source && follow), !source, step);
    }

    /**
     * Opens the directory {@code names} (one or more) lead to from the open directory {@code from},
     * which stays open: where {@code beneath} (no name on the way to be followed if it is a symbolic
     * link) in one call where the kernel has {@code openat2} ({@link Descriptors#openDirectoryBeneath}:
     * no symbolic link on the way, nothing out of {@code from}; to make entries in where
     * {@code toWrite}), else one name at a time by {@code step} ({@link #descend}).
     */
    public static int openWay(Descriptors descriptors, int from, List<byte[]> names, boolean beneath, boolean toWrite, Step step)
            throws IOException {
        if (beneath) {
            java.io.ByteArrayOutputStream path = new java.io.ByteArrayOutputStream();
            for (byte[] name : names) {
                if (path.size() > 0) {
                    path.write('/');
                }
                path.writeBytes(name);
            }
            java.util.OptionalInt fd = descriptors.openDirectoryBeneath(from, path.toByteArray(), toWrite);
            if (fd.isPresent()) {
                return fd.getAsInt();
            }
        }
        return descend(descriptors, step.open(from, names.get(0)), names.subList(1, names.size()), step);
    }

    /** One step of {@link #descend}: the descriptor of {@code name} opened in the directory {@code at}. */
    @FunctionalInterface
    public interface Step {
        int open(int at, byte[] name) throws IOException;
    }

    /**
     * Opens {@code names} each in the one before, from the open directory {@code fd}, one name at a
     * time (closing each directory once the next is open, and the one open where a step fails): the
     * last one's descriptor, or {@code fd} where there are no names.
     */
    public static int descend(Descriptors descriptors, int fd, List<byte[]> names, Step step) throws IOException {
        try {
            for (byte[] name : names) {
                int next = step.open(fd, name);
                descriptors.close(fd);
                fd = next;
            }
            return fd;
        } catch (IOException | RuntimeException e) {
            descriptors.close(fd);
            throw e;
        }
    }

    /**
     * Opens one side of a pair: relative to its parent's descriptor where that is held (and then
     * records how in {@code origins}: the source's at 0, the copy's at 1), else by its path.
     */
    private int openSide(Path dir, boolean source, boolean follow, DirectoryPair.Origin[] origins) throws IOException {
        Path parent = dir.getParent();
        Held p = parent == null || PathLimit.tooLong(dir) ? null : held.get(parent);
        if (p != null && p.pair().tryRetain()) {
            try {
                byte[] name = PathBytes.of(dir.getFileName());
                int fd = source ? descriptors.openDirectory(p.fd(), name, follow) : descriptors.openDirectoryToWrite(p.fd(), name, follow);
                origins[source ? 0 : 1] = new DirectoryPair.Origin(p.pair(), p.source, name, follow);
                return fd;
            } finally {
                p.pair().release();
            }
        }
        return source ? descriptors.openDirectory(dir) : descriptors.openDirectoryToWrite(dir);
    }

    /**
     * Holds {@code pair} (taking over the reference its opener had) as the directories {@code source}
     * and {@code target}: what is below them is reached through it until {@link #drop}.
     */
    public void hold(Path source, Path target, DirectoryPair pair) {
        held.put(PathBytes.withoutTrailingSlashes(source), new Held(pair, true));
        held.put(PathBytes.withoutTrailingSlashes(target), new Held(pair, false));
    }

    /** Stops reaching below {@code source} and {@code target} through {@code pair}, and releases it. */
    public void drop(Path source, Path target, DirectoryPair pair) {
        held.remove(PathBytes.withoutTrailingSlashes(source), new Held(pair, true));
        held.remove(PathBytes.withoutTrailingSlashes(target), new Held(pair, false));
        pair.release();
    }

    /** {@code lstat} of {@code path} reached as {@link #at} reaches it, or null when it fails. */
    public Stat lstatOrNull(Path path) {
        try {
            return lstatIfThere(path);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * {@code lstat} of {@code path} reached as {@link #at} reaches it; null when nothing is there
     * ({@code ENOENT}), answered without an exception where descriptors are (one {@code statx}: what a
     * copy into an existing tree, or a plan's worker, asks of each destination). Other failures throw.
     */
    public Stat lstatIfThere(Path path) throws IOException {
        if (descriptors == null) {
            try {
                return stat(path, false);
            } catch (java.nio.file.NoSuchFileException e) {
                return null;
            }
        }
        Held h = heldParent(path);
        if (h == null) {
            return Stat.ifThere(descriptors, dev.cpx.spi.support.Fcntl.AT_FDCWD, PathBytes.of(unstaged(path)));
        }
        try {
            return Stat.ifThere(descriptors, h.fd(), PathBytes.of(path.getFileName()));
        } finally {
            h.pair().release();
        }
    }

    /** The attributes of the open descriptor {@code fd} (fstat), or null when they cannot be read. */
    public Stat statOrNull(int fd) {
        try {
            return Stat.of(descriptors.status(fd));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** {@code stat} of {@code path} reached as {@link #at} reaches it, or null when it fails. */
    public Stat statOrNull(Path path) {
        try {
            return stat(path, true);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The attributes of {@code path} reached as {@link #at} reaches it. (Written out rather than
     * through {@link #at}: it is on every directory's path, where a lambda's first linking, outside
     * the class data sharing archive, costs more than the call.)
     */
    public Stat stat(Path path, boolean followLinks) throws IOException {
        Held h = heldParent(path);
        if (h == null) {
            return Stat.of(unstaged(path), followLinks);
        }
        try {
            return Stat.of(self(h.fd()).resolve(path.getFileName()), followLinks);
        } finally {
            h.pair().release();
        }
    }

    /** The text of the symbolic link {@code path} reached as {@link #at} reaches it. */
    public Path readSymbolicLink(Path path) throws IOException {
        return at(path, java.nio.file.Files::readSymbolicLink);
    }

    /** Which of a pair's directories could not be opened, and why. */
    public static final class OpenFailure extends IOException {
        private static final long serialVersionUID = 1L;
        private final transient Path path;
        private final boolean source;

        OpenFailure(Path path, boolean source, IOException cause) {
            super(cause);
            this.path = path;
            this.source = source;
        }

        /** Whether it was the source directory (else the copy) that could not be opened. */
        public boolean source() {
            return source;
        }

        /** The directory, as it is reported. */
        public Path path() {
            return path;
        }

        /** The kernel's failure. */
        public IOException reason() {
            return (IOException) getCause();
        }
    }

    /** Where {@link #self} paths are. */
    static final Path PROC_SELF_FD = Path.of("/proc/self/fd");

    /** The path of an open descriptor itself, through which the kernel reaches exactly the file it is open on. */
    public static Path self(int fd) {
        return Path.of("/proc/self/fd/" + fd);
    }

    /** The inverse of {@link #self}: the descriptor N a path {@code /proc/self/fd/N} names, or -1 for any other path. */
    public static int descriptorOf(Path path) {
        if (path.getNameCount() != 4 || !path.startsWith(PROC_SELF_FD)) {
            return -1;
        }
        int fd = 0;
        // The number self wrote: ASCII digits.
        for (byte b : PathBytes.of(path.getFileName())) {
            if (b < '0' || b > '9' || fd > 100_000_000) {
                return -1;
            }
            fd = fd * 10 + (b - '0');
        }
        return fd;
    }

    /**
     * Runs {@code op} on {@code path}, reached relative to its directory's descriptor where that is
     * held ({@code /proc/self/fd/N/NAME}: the last name is resolved in the open directory, as by an
     * {@code *at} call, following a symbolic link there only where {@code op} itself follows one),
     * else on {@code path} as given. The directory stays open while {@code op} runs.
     */
    public <T> T at(Path path, PathOperation<T> op) throws IOException {
        Held h = heldParent(path);
        if (h == null) {
            return op.apply(unstaged(path));
        }
        try {
            return op.apply(self(h.fd()).resolve(path.getFileName()));
        } finally {
            h.pair().release();
        }
    }

    /**
     * Runs {@code op} on the entry {@code path} itself, pinned first ({@link Descriptors#openEntry}:
     * never through a symbolic link put in its place), for the calls that would follow one
     * ({@code chmod}, {@code setxattr}): a symbolic link there then fails the call instead of
     * leading outside. Where the directory is not held, on {@code path} as given.
     */
    public <T> T pinned(Path path, PathOperation<T> op) throws IOException {
        Held h = heldParent(path);
        if (h == null) {
            return op.apply(unstaged(path));
        }
        try {
            int fd = descriptors.openEntry(h.fd(), PathBytes.of(path.getFileName()));
            try {
                return op.apply(self(fd));
            } finally {
                descriptors.close(fd);
            }
        } finally {
            h.pair().release();
        }
    }

    /**
     * The held directory of {@code path}, with its name, for an {@code *at} call by the caller, who
     * then calls {@link Relative#close}; null where it is not held.
     */
    public Relative relative(Path path) throws IOException {
        Held h = heldParent(path);
        return h == null ? null : new Relative(h, PathBytes.of(path.getFileName()));
    }

    /** A name in a held directory, open until {@link #close}. */
    public static final class Relative implements AutoCloseable {
        private final Held held;
        private final byte[] name;

        private Relative(Held held, byte[] name) {
            this.held = held;
            this.name = name;
        }

        /** The directory's descriptor. */
        public int directory() {
            return held.fd();
        }

        public byte[] name() {
            return name;
        }

        @Override
        public void close() {
            held.pair().release();
        }
    }

    /**
     * Records that the copy {@code target} is made under {@code stagedAs} until {@link #unstage}: a
     * path below it whose directory is no longer held (a hard link's first name, in a directory
     * already done) is reached there.
     */
    public void stage(Path target, Path stagedAs) {
        staged.put(PathBytes.withoutTrailingSlashes(target), stagedAs);
    }

    /** The copy {@code target} has its final name. */
    public void unstage(Path target) {
        staged.remove(PathBytes.withoutTrailingSlashes(target));
    }

    /**
     * {@code path}, or where it is while the copy it is in is made under a staging name. A path beyond
     * GNU cp's reach stays as it is, to be refused as GNU's is, whatever the length of the staging name.
     */
    private Path unstaged(Path path) {
        if (staged.isEmpty() || PathLimit.tooLong(path)) {
            return path;
        }
        for (Path p = path; p != null; p = p.getParent()) {
            Path at = staged.get(p);
            if (at != null) {
                return p == path ? at : at.resolve(p.relativize(path));
            }
        }
        return path;
    }

    /**
     * {@code path}'s directory, retained, where it is held; else null. Fails where it is held but
     * could not be opened again as the same directory ({@link DirectoryPair#tryRetain}).
     */
    private Held heldParent(Path path) throws IOException {
        // Beyond GNU cp's reach a path is resolved as given, so the kernel refuses it as it refuses GNU
        // cp (which also bounds the directories held to the depth of such a path).
        if (held == null || held.isEmpty() || PathLimit.tooLong(path)) {
            return null;
        }
        Path parent = path.getParent();
        Path name = path.getFileName();
        if (parent == null || name == null || isDots(name)) {
            return null;
        }
        Held h = held.get(parent);
        return h != null && h.pair().tryRetain() ? h : null;
    }

    private static boolean isDots(Path name) {
        byte[] b = PathBytes.of(name);
        return (b.length == 1 && b[0] == '.') || (b.length == 2 && b[0] == '.' && b[1] == '.');
    }
}
