package dev.cpx.core.fs;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Optional;
import java.util.Set;

/** {@code --dry-run}: every change is left out; files are neither created nor opened for writing. */
final class DryRunEffects implements Effects {

    @Override
    public boolean changes() {
        return false;
    }

    @Override
    public void createDirectory(Path dir, int mode) {
    }

    @Override
    public void createSymbolicLink(Path link, Path target) {
    }

    @Override
    public void createLink(Path link, Path existing) {
    }

    @Override
    public void makeNode(Path path, int mode, long rdev) {
    }

    @Override
    public void rename(Path from, Path to) {
    }

    @Override
    public boolean remove(Path path) {
        return true;
    }

    @Override
    public void setTimes(Path path, FileTime atime, FileTime mtime, boolean follow) {
    }

    @Override
    public void setOwner(Path path, int uid, int gid, boolean follow) {
    }

    @Override
    public void setGroup(Path path, int gid, boolean follow) {
    }

    @Override
    public void setMode(Path path, int mode) {
    }

    @Override
    public void setXattr(Path path, String name, byte[] value) {
    }

    @Override
    public void removeXattr(Path path, String name) {
    }

    @Override
    public Optional<FileChannel> createUnnamed(Path directory, int mode) {
        return Optional.empty();
    }

    @Override
    public void linkUnnamed(FileChannel file, Path target) {
    }

    @Override
    public void createDirectoryAt(int directory, byte[] name, int mode) {
    }

    @Override
    public Optional<FileChannel> createUnnamedAt(DirectoryPair directories, int mode) {
        return Optional.empty();
    }

    @Override
    public void linkUnnamedAt(FileChannel file, int directory, byte[] name) {
    }

    @Override
    public FileChannel createFileAt(DirectoryPair directories, byte[] name, int mode) throws IOException {
        throw new IOException("a dry run creates nothing");
    }

    @Override
    public void renameNoReplace(Path from, Path to) {
    }

    @Override
    public FileChannel open(Path path, Set<? extends OpenOption> options, int mode) throws IOException {
        throw new IOException("a dry run opens nothing for writing");
    }

    @Override
    public void syncDirectory(Path dir) {
    }
}
