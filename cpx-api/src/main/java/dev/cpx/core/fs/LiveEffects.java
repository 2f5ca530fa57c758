package dev.cpx.core.fs;

import dev.cpx.spi.Descriptors;
import dev.cpx.spi.PosixExtras;
import dev.cpx.spi.support.FileDescriptors;
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

/** The effects that change the file system: NIO, and the native extras for what NIO cannot do. */
final class LiveEffects implements Effects {

    private final PosixExtras extras;
    /** Null where the extras have no descriptor operations. */
    private final Descriptors descriptors;

    LiveEffects(PosixExtras extras) {
        this.extras = extras;
        this.descriptors = extras.descriptors().orElse(null);
    }

    @Override
    public boolean changes() {
        return true;
    }

    /**
     * {@code mkdir}: NIO passes only the permission bits, so a sticky bit asked for (which {@code mkdir}
     * would keep) is added after, keeping a set-gid bit the directory inherited.
     */
    @Override
    public void createDirectory(Path dir, int mode) throws IOException {
        Files.createDirectory(dir, Permissions.attribute(mode));
        if ((mode & 01000) != 0) {
            setMode(dir, Stat.lstat(dir).permissions() | 01000);
        }
    }

    @Override
    public void createSymbolicLink(Path link, Path target) throws IOException {
        Files.createSymbolicLink(link, target);
    }

    @Override
    public void createLink(Path link, Path existing) throws IOException {
        Files.createLink(link, existing);
    }

    @Override
    public void makeNode(Path path, int mode, long rdev) throws IOException {
        extras.makeNode(path, mode, rdev);
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public boolean remove(Path path) throws IOException {
        return Files.deleteIfExists(path);
    }

    /**
     * One {@code utimensat} through the native extras (the JDK's own {@code setTimes} opens the file,
     * where a FIFO would block forever, and loses nanoseconds on links on JDK 17).
     */
    @Override
    public void setTimes(Path path, FileTime atime, FileTime mtime, boolean follow) throws IOException {
        extras.setTimes(path, atime, mtime, follow);
    }

    @Override
    public void setOwner(Path path, int uid, int gid, boolean follow) throws IOException {
        Files.setAttribute(path, "unix:uid", uid, Links.options(follow));
        Files.setAttribute(path, "unix:gid", gid, Links.options(follow));
    }

    @Override
    public void setGroup(Path path, int gid, boolean follow) throws IOException {
        Files.setAttribute(path, "unix:gid", gid, Links.options(follow));
    }

    @Override
    public void setMode(Path path, int mode) throws IOException {
        Files.setAttribute(path, "unix:mode", mode);
    }

    @Override
    public void setXattr(Path path, String name, byte[] value) throws IOException {
        extras.setXattr(path, name, value, true);
    }

    @Override
    public void removeXattr(Path path, String name) throws IOException {
        extras.removeXattr(path, name, true);
    }

    @Override
    public Optional<FileChannel> createUnnamed(Path directory, int mode) throws IOException {
        return extras.createUnnamed(directory, mode);
    }

    @Override
    public void linkUnnamed(FileChannel file, Path target) throws IOException {
        extras.linkUnnamed(file, target);
    }

    @Override
    public void createDirectoryAt(int directory, byte[] name, int mode) throws IOException {
        descriptors().makeDirectory(directory, name, mode);
    }

    @Override
    public Optional<FileChannel> createUnnamedAt(int directory, int mode) throws IOException {
        if (descriptors == null) {
            return Optional.empty();
        }
        OptionalInt fd = descriptors.createUnnamed(directory, mode);
        return fd.isPresent() ? Optional.of(descriptors.channel(fd.getAsInt(), true, true)) : Optional.empty();
    }

    @Override
    public void linkUnnamedAt(FileChannel file, int directory, byte[] name) throws IOException {
        descriptors().linkUnnamed(FileDescriptors.of(file), directory, name);
    }

    private Descriptors descriptors() throws IOException {
        if (descriptors == null) {
            throw new FileSystemException(null, null, "Operation not supported (no descriptor operations)");
        }
        return descriptors;
    }

    @Override
    public FileChannel open(Path path, Set<? extends OpenOption> options, int mode) throws IOException {
        return options.contains(StandardOpenOption.CREATE) || options.contains(StandardOpenOption.CREATE_NEW)
                ? FileChannel.open(path, options, Permissions.attribute(mode))
                : FileChannel.open(path, options);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }
}
