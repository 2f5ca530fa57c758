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
 * (Checked by path, component by component: a directory swapped for a link between the check and
 * the copy is the remaining race, closed once the scheduler opens directories relative to their
 * parent's descriptor.)
 */
final class SafeDirectories {

    private final Set<Path> known = new HashSet<>();
    /** Where set, "is anything there?" is one {@code statx} rather than an exception per missing directory. */
    private final Descriptors descriptors;

    SafeDirectories() {
        this(null);
    }

    SafeDirectories(Descriptors descriptors) {
        this.descriptors = descriptors;
    }

    /** The directory {@code components} below {@code root}, made where missing. */
    Path ensure(Path root, boolean rootFollowed, List<byte[]> components) throws IOException {
        Path dir = root;
        check(dir, rootFollowed, true);
        for (byte[] c : components) {
            dir = dir.resolve(PathBytes.path(c));
            check(dir, false, true);
        }
        return dir;
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
