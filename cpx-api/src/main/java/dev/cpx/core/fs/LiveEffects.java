package dev.cpx.core.fs;

import dev.cpx.spi.Descriptors;
import dev.cpx.spi.PosixExtras;
import dev.cpx.spi.support.FileDescriptors;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The effects that change the file system: NIO, and the native extras for what NIO cannot do. Each
 * path is reached through its directory where {@link Anchors} hold it open: a name in it, never a
 * whole path resolved again; the calls that would follow a symbolic link in the last name
 * ({@code chmod}, {@code setxattr}, and the others where asked to follow) act on the entry pinned
 * first ({@link Anchors#pinned}).
 */
final class LiveEffects implements Effects {

    private final PosixExtras extras;
    /** Null where the extras have no descriptor operations. */
    private final Descriptors descriptors;

    private final Anchors anchors;

    LiveEffects(PosixExtras extras, Anchors anchors) {
        this.extras = extras;
        this.descriptors = extras.descriptors().orElse(null);
        this.anchors = anchors;
    }

    @Override
    public boolean changes() {
        return true;
    }

    /**
     * {@code mkdirat} in the held directory (which keeps a sticky bit, as {@code mkdir} does); else
     * {@code mkdir} through NIO, which passes only the permission bits, so a sticky bit asked for is
     * added after, keeping a set-gid bit the directory inherited.
     */
    @Override
    public void createDirectory(Path dir, int mode) throws IOException {
        try (Anchors.Relative at = anchors.relative(dir)) {
            if (at != null) {
                anchors.descriptors().makeDirectory(at.directory(), at.name(), mode);
                return;
            }
        }
        Files.createDirectory(dir, Permissions.attribute(mode));
        if ((mode & 01000) != 0) {
            setMode(dir, Stat.lstat(dir).permissions() | 01000);
        }
    }

    @Override
    public void createSymbolicLink(Path link, Path target) throws IOException {
        anchors.at(link, l -> Files.createSymbolicLink(l, target));
    }

    @Override
    public void createLink(Path link, Path existing) throws IOException {
        anchors.at(link, l -> anchors.at(existing, x -> Files.createLink(l, x)));
    }

    @Override
    public void makeNode(Path path, int mode, long rdev) throws IOException {
        anchors.at(path, p -> {
            extras.makeNode(p, mode, rdev);
            return null;
        });
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        anchors.at(from, f -> anchors.at(to, t -> Files.move(f, t, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING)));
    }

    @Override
    public boolean remove(Path path) throws IOException {
        return anchors.at(path, Files::deleteIfExists);
    }

    /**
     * The descriptor a path {@code /proc/self/fd/N} names (what cpx reaches its own open files by: a
     * new file unnamed or staged, a directory at its end), or -1 for any other path or without
     * descriptor calls. Through it owner, mode and times are set by {@code fchown}, {@code fchmod},
     * {@code futimens}: no path for the kernel to resolve through procfs, one call for owner and group.
     */
    private int ownDescriptor(Path path) {
        return descriptors == null ? -1 : Anchors.descriptorOf(path);
    }

    /**
     * One {@code utimensat} through the native extras (the JDK's own {@code setTimes} opens the file,
     * where a FIFO would block forever, and loses nanoseconds on links on JDK 17).
     */
    @Override
    public void setTimes(Path path, FileTime atime, FileTime mtime, boolean follow) throws IOException {
        int fd = follow ? ownDescriptor(path) : -1;
        if (fd >= 0 && descriptors.changeTimes(fd, atime, mtime)) {
            return;
        }
        reach(path, follow, p -> {
            extras.setTimes(p, atime, mtime, follow);
            return null;
        });
    }

    @Override
    public void setOwner(Path path, int uid, int gid, boolean follow) throws IOException {
        int fd = follow ? ownDescriptor(path) : -1;
        if (fd >= 0 && descriptors.changeOwner(fd, uid, gid)) {
            return;
        }
        reach(path, follow, p -> {
            Files.setAttribute(p, "unix:uid", uid, Links.options(follow));
            return Files.setAttribute(p, "unix:gid", gid, Links.options(follow));
        });
    }

    @Override
    public void setGroup(Path path, int gid, boolean follow) throws IOException {
        int fd = follow ? ownDescriptor(path) : -1;
        if (fd >= 0 && descriptors.changeOwner(fd, -1, gid)) {
            return;
        }
        reach(path, follow, p -> Files.setAttribute(p, "unix:gid", gid, Links.options(follow)));
    }

    @Override
    public void setMode(Path path, int mode) throws IOException {
        if (path.startsWith(Anchors.PROC_SELF_FD)) {
            // A descriptor's own path (a directory's at its end, a new file's): nothing to pin, and no
            // lambda to link on every directory's path.
            int fd = ownDescriptor(path);
            if (fd < 0 || !descriptors.changeMode(fd, mode)) {
                Files.setAttribute(path, "unix:mode", mode);
            }
            return;
        }
        anchors.pinned(path, p -> Files.setAttribute(p, "unix:mode", mode));
    }

    @Override
    public void setXattr(Path path, String name, byte[] value) throws IOException {
        anchors.pinned(path, p -> {
            extras.setXattr(p, name, value, true);
            return null;
        });
    }

    @Override
    public void removeXattr(Path path, String name) throws IOException {
        anchors.pinned(path, p -> {
            extras.removeXattr(p, name, true);
            return null;
        });
    }

    @Override
    public Optional<FileChannel> createUnnamed(Path directory, int mode) throws IOException {
        return anchors.pinned(directory, d -> extras.createUnnamed(d, mode));
    }

    @Override
    public void linkUnnamed(FileChannel file, Path target) throws IOException {
        anchors.at(target, t -> {
            extras.linkUnnamed(file, t);
            return null;
        });
    }

    @Override
    public void createDirectoryAt(int directory, byte[] name, int mode) throws IOException {
        descriptors().makeDirectory(directory, name, mode);
    }

    @Override
    public Optional<FileChannel> createUnnamedAt(DirectoryPair directories, int mode) throws IOException {
        if (descriptors == null) {
            return Optional.empty();
        }
        OptionalInt fd = descriptors.createUnnamed(directories.target(), mode);
        return fd.isPresent() ? Optional.of(written(directories, fd.getAsInt())) : Optional.empty();
    }

    @Override
    public void linkUnnamedAt(FileChannel file, int directory, byte[] name) throws IOException {
        descriptors().linkUnnamed(FileDescriptors.of(file), directory, name);
    }

    @Override
    public FileChannel createFileAt(DirectoryPair directories, byte[] name, int mode) throws IOException {
        return written(directories, descriptors().createFile(directories.target(), name, mode));
    }

    /**
     * The channel of a file made in {@code directories}' copy: its close put off where the file
     * system's close cannot fail ({@link WrittenCloses}), learnt once for the directory.
     */
    private FileChannel written(DirectoryPair directories, int fd) {
        int known = directories.writtenCloses();
        if (known == DirectoryPair.CLOSES_UNKNOWN) {
            known = WrittenCloses.canBePutOff(extras.fileSystemType(Path.of("/proc/self/fd/" + directories.target())))
                    ? DirectoryPair.CLOSES_PUT_OFF : DirectoryPair.CLOSES_AT_ONCE;
            directories.writtenCloses(known);
        }
        return known == DirectoryPair.CLOSES_PUT_OFF
                ? descriptors.channelClosedLater(fd, true, true) : descriptors.channel(fd, true, true);
    }

    /**
     * {@code renameat2(RENAME_NOREPLACE)} relative to the directory both names are in (held, or
     * opened for it by its path); where that cannot be done, a rename after looking that nothing is
     * there.
     */
    @Override
    public void renameNoReplace(Path from, Path to) throws IOException {
        Path dir = from.getParent() == null ? Path.of(".") : from.getParent();
        if (descriptors != null && descriptors.opensRelative() && dir.equals(to.getParent() == null ? Path.of(".") : to.getParent())) {
            try (Anchors.Relative at = anchors.relative(from)) {
                if (at != null) {
                    descriptors.renameNoReplace(at.directory(), at.name(), at.directory(), PathBytes.of(to.getFileName()));
                    return;
                }
            }
            int d = descriptors.openDirectoryToWrite(dir);
            try {
                descriptors.renameNoReplace(d, PathBytes.of(from.getFileName()), d, PathBytes.of(to.getFileName()));
            } finally {
                descriptors.close(d);
            }
            return;
        }
        if (anchors.lstatOrNull(to) != null) {
            throw new java.nio.file.FileAlreadyExistsException(to.toString());
        }
        rename(from, to);
    }

    private Descriptors descriptors() throws IOException {
        if (descriptors == null) {
            throw new FileSystemException(null, null, "Operation not supported (no descriptor operations)");
        }
        return descriptors;
    }

    @Override
    public FileChannel open(Path path, Set<? extends OpenOption> options, int mode) throws IOException {
        return anchors.at(path, p -> options.contains(StandardOpenOption.CREATE) || options.contains(StandardOpenOption.CREATE_NEW)
                ? FileChannel.open(p, options, Permissions.attribute(mode))
                : FileChannel.open(p, options));
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        anchors.pinned(dir, p -> {
            try (FileChannel d = FileChannel.open(p, StandardOpenOption.READ)) {
                d.force(true);
            }
            return null;
        });
    }

    /** {@code path} itself where the call does not follow a link in its last name; pinned first where it does. */
    private <T> T reach(Path path, boolean follow, Anchors.PathOperation<T> op) throws IOException {
        return follow ? anchors.pinned(path, op) : anchors.at(path, op);
    }
}
