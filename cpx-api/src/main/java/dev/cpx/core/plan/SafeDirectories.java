package dev.cpx.core.plan;

import dev.cpx.core.fs.Stat;
import dev.cpx.spi.Descriptors;
import dev.cpx.spi.support.Fcntl;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Makes the destination directories a chunk's entries go into, one component at a time, never
 * following a symbolic link below the operand's target: a name from a plan cannot lead outside
 * the destination. Directories are made with the default mode; the finish step gives them theirs.
 * Where descriptors are, {@link #open} and {@link #reach} open each directory relative to the one
 * above, and what is done in it goes through that descriptor, so a directory swapped for a link
 * later is not followed either (the runs' entries: {@code EntryList}, docs/security.md); without
 * them, {@link #ensure} checks by path.
 */
final class SafeDirectories implements AutoCloseable {

    private final Set<Path> known = new HashSet<>();
    /** The operand's target last made directories below, open (-1: none). */
    private int openRootFd = -1;
    private Path openRoot;
    /** Where set, "is anything there?" is one {@code statx} rather than an exception per missing directory. */
    private final Descriptors descriptors;

    SafeDirectories() {
        this(null);
    }

    SafeDirectories(Descriptors descriptors) {
        this.descriptors = descriptors;
    }

    /** The directory {@code components} below {@code root}, made where missing (through descriptors where there are). */
    Path ensure(Path root, boolean rootFollowed, List<byte[]> components) throws IOException {
        if (descriptors != null && descriptors.opensRelative()) {
            // Made one name at a time through the directory above (never by a path a link swapped in
            // could redirect), once for each directory not made or checked before.
            Path dir = below(root, components);
            if (!known.contains(dir)) {
                if (!madeInItsParent(root, rootFollowed, components)) {
                    descriptors.close(open(root, rootFollowed, components));
                }
                for (Path p = dir; p != null && p.startsWith(root); p = p.getParent()) {
                    known.add(p);
                }
            }
            return dir;
        }
        Path dir = root;
        check(dir, rootFollowed, true);
        for (byte[] c : components) {
            dir = dir.resolve(PathBytes.path(c));
            check(dir, false, true);
        }
        return dir;
    }

    /**
     * The directory {@code components} below {@code root} made (or found) in its parent, opened below
     * {@code root} in one call ({@link Descriptors#openDirectoryBeneath}: never through a link):
     * three calls for a new directory whose parent exists, a chunk's common case. False where that
     * does not apply or fails; then {@link #open} walks, and says why it cannot.
     */
    private boolean madeInItsParent(Path root, boolean rootFollowed, List<byte[]> components) {
        if (components.isEmpty()) {
            return false;
        }
        int parent = -1;
        try {
            if (components.size() == 1) {
                check(root, rootFollowed, true);
                parent = rootOpen(root);
            } else {
                java.util.OptionalInt p = beneath(root, rootFollowed, components.subList(0, components.size() - 1));
                if (p.isEmpty()) {
                    return false;
                }
                parent = p.getAsInt();
            }
            byte[] last = components.get(components.size() - 1);
            try {
                descriptors.makeDirectory(parent, last, 0777);
            } catch (FileAlreadyExistsException e) {
                // there already, or made by another worker meanwhile: looked at below
            }
            Stat st = Stat.ifThere(descriptors, parent, last);
            return st != null && st.isDirectory();
        } catch (IOException e) {
            return false;
        } finally {
            if (parent >= 0 && parent != openRootFd) {
                descriptors.close(parent);
            }
        }
    }

    /**
     * The directory {@code components} below {@code root} opened in one call below the root kept
     * open ({@link Descriptors#openDirectoryBeneath}: never through a link, nothing out of the root);
     * empty where not (no such call here, not there, a link on the way: {@link #open}'s walk says
     * which).
     */
    private java.util.OptionalInt beneath(Path root, boolean rootFollowed, List<byte[]> components) {
        try {
            check(root, rootFollowed, true);
            return descriptors.openDirectoryBeneath(rootOpen(root), PlanNames.join(components), true);
        } catch (IOException e) {
            return java.util.OptionalInt.empty();
        }
    }

    /** {@code root} opened by its path as given, kept open for the next directory below it until {@link #close}. */
    private int rootOpen(Path root) throws IOException {
        if (openRootFd >= 0 && root.equals(openRoot)) {
            return openRootFd;
        }
        close();
        openRootFd = descriptors.openDirectoryToWrite(root);
        openRoot = root;
        return openRootFd;
    }

    /** Closes the root kept open, if any. */
    @Override
    public void close() {
        if (openRootFd >= 0) {
            descriptors.close(openRootFd);
            openRootFd = -1;
            openRoot = null;
        }
    }

    /**
     * Where the copy of {@code name} below {@code root} is: the path it is shown as, and the path to
     * reach it by, its directories made where missing. Where descriptors are, that is
     * {@code /proc/self/fd/N/NAME} with N its directory opened by {@link #open} (the kernel resolves
     * NAME in the directory opened, whatever is renamed or swapped meanwhile); else the path itself,
     * its directories checked by {@link #ensure}. Open until {@link Reached#close}.
     */
    Reached reach(Path root, boolean rootFollowed, byte[] name) throws IOException, PlanNames.UnsafeName {
        List<byte[]> parts = PlanNames.components(name);
        if (parts.isEmpty()) {
            return new Reached(root, root, -1);
        }
        Reached dir = directory(root, rootFollowed, parts.subList(0, parts.size() - 1));
        Path last = PathBytes.path(parts.get(parts.size() - 1));
        return new Reached(dir.shown.resolve(last), dir.at.resolve(last), dir.fd);
    }

    /**
     * The directory {@code components} below {@code root}, made where missing, as {@link #reach}
     * gives a copy's place: reached at {@code /proc/self/fd/N} of it opened by {@link #open}, or by
     * its path (checked by {@link #ensure}) without descriptors. Open until {@link Reached#close}.
     */
    Reached directory(Path root, boolean rootFollowed, List<byte[]> components) throws IOException {
        int fd = open(root, rootFollowed, components);
        if (fd < 0) {
            Path dir = ensure(root, rootFollowed, components);
            return new Reached(dir, dir, -1);
        }
        return new Reached(below(root, components), dev.cpx.core.fs.Anchors.self(fd), fd);
    }

    /** A copy's place from {@link #reach}: its directory stays open until {@link #close}. */
    final class Reached implements AutoCloseable {
        private final Path shown;
        private final Path at;
        private final int fd;

        private Reached(Path shown, Path at, int fd) {
            this.shown = shown;
            this.at = at;
            this.fd = fd;
        }

        /** The path the copy is shown as. */
        Path shown() {
            return shown;
        }

        /** The path to reach the copy by. */
        Path at() {
            return at;
        }

        @Override
        public void close() {
            if (fd >= 0) {
                descriptors.close(fd);
            }
        }
    }

    /**
     * The path of {@code name} (a plan's entry name) below {@code root}, as it is shown: the root
     * itself as given (an operand's trailing slash kept), an entry below it joined with one slash.
     */
    static Path shown(Path root, byte[] name) {
        return name.length == 0 ? root : PathBytes.withoutTrailingSlashes(root).resolve(PathBytes.path(name));
    }

    /** The path of {@code components} below {@code root}, as it is shown. */
    static Path below(Path root, List<byte[]> components) {
        Path dir = components.isEmpty() ? root : PathBytes.withoutTrailingSlashes(root);
        for (byte[] c : components) {
            dir = dir.resolve(PathBytes.path(c));
        }
        return dir;
    }

    /**
     * The directory {@code components} below {@code root}, made where missing, opened one name at a
     * time relative to the directory above without following a symbolic link: its descriptor
     * ({@code O_PATH}, for {@code *at} calls and {@link dev.cpx.core.fs.Anchors#self} paths), which
     * the caller closes; the directory stays the one opened whatever is renamed or swapped later.
     * {@code root} is resolved as given (a command-line operand's target), as {@link #ensure} checks
     * it. -1 where there are no relative descriptor operations: then {@link #ensure} by path.
     */
    int open(Path root, boolean rootFollowed, List<byte[]> components) throws IOException {
        if (descriptors == null || !descriptors.opensRelative()) {
            return -1;
        }
        java.util.OptionalInt there = components.isEmpty() ? java.util.OptionalInt.empty() : beneath(root, rootFollowed, components);
        if (there.isPresent()) {
            return there.getAsInt();
        }
        check(root, rootFollowed, true);
        Path[] dir = {root};
        return dev.cpx.core.fs.Anchors.descend(descriptors, descriptors.openDirectoryToWrite(root), components, (at, c) -> {
            dir[0] = dir[0].resolve(PathBytes.path(c));
            try {
                return openOrMake(at, c);
            } catch (IOException e) {
                throw refusal(at, c, dir[0], e);
            }
        });
    }

    private int openOrMake(int fd, byte[] name) throws IOException {
        try {
            return descriptors.openDirectoryToWrite(fd, name, false);
        } catch (java.nio.file.NoSuchFileException e) {
            try {
                descriptors.makeDirectory(fd, name, 0777);
            } catch (FileAlreadyExistsException x) {
                // made by another worker meanwhile
            }
            return descriptors.openDirectoryToWrite(fd, name, false);
        }
    }

    /** Why {@code name} in {@code fd} (shown as {@code dir}) could not be opened as a directory. */
    private IOException refusal(int fd, byte[] name, Path dir, IOException e) {
        Stat st;
        try {
            st = Stat.ifThere(descriptors, fd, name);
        } catch (IOException x) {
            return e;
        }
        if (st != null && st.isSymlink()) {
            return new IOException("refusing to follow the symbolic link " + PlanDirectory.show(dir) + " in the destination");
        }
        if (st != null && !st.isDirectory()) {
            return new IOException(PlanDirectory.show(dir) + " exists but is not a directory");
        }
        return e;
    }

    private void check(Path dir, boolean follow, boolean create) throws IOException {
        if (known.contains(dir)) {
            return;
        }
        Stat st = lstatIfThere(dir);
        if (st == null && create) {
            try {
                Files.createDirectory(dir);
            } catch (FileAlreadyExistsException e) {
                // made by another worker meanwhile
            }
            st = lstatIfThere(dir);
        }
        if (st == null) {
            throw new IOException("no directory " + PlanDirectory.show(dir));
        }
        if (st.isSymlink() && follow) {
            st = Stat.stat(dir);
        }
        if (st.isSymlink()) {
            throw new IOException("refusing to follow the symbolic link " + PlanDirectory.show(dir) + " in the destination");
        }
        if (!st.isDirectory()) {
            throw new IOException(PlanDirectory.show(dir) + " exists but is not a directory");
        }
        known.add(dir);
    }

    private Stat lstatIfThere(Path dir) throws IOException {
        if (descriptors == null) {
            return Stat.lstatOrNull(dir);
        }
        return Stat.ifThere(descriptors, Fcntl.AT_FDCWD, PathBytes.of(dir));
    }
}
