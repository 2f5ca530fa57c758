package dev.cpx.core.copy;

import dev.cpx.core.fs.DirectoryPair;

/**
 * Where an entry of an open directory is read and its copy made: its name in the source directory
 * and in the copy, both open ({@link DirectoryPair}), so each call resolves one name, not a path.
 *
 * @param directories the open source directory and its copy
 * @param name the entry's name, its bytes
 */
public record Place(DirectoryPair directories, byte[] name) {
}
