package dev.cpx.spi.support;

import java.io.IOException;

/**
 * A rename that never replaces what the new name holds: {@code renameat2(RENAME_NOREPLACE)} where
 * the file system has it. Where it refuses the flag ({@code EINVAL}: NFS, CIFS, FUSE file systems
 * without {@code rename2}; {@code ENOSYS} before Linux 3.15), what gnulib's {@code renameatu} does
 * for GNU cp: a look whether the name is taken, then a plain rename. Between the two another
 * process could make the name: a file there is replaced by a file, an empty directory by a
 * directory (anything else makes the rename fail), as with GNU's fallback.
 *
 * @since 0.4.0
 */
public final class NoReplaceRename {

    /** The engine's two calls. */
    public interface Calls {
        /** {@code renameat2(fromDirectory, from, toDirectory, to, flags)}: 0, or the errno of its failure. */
        int renameat2(int fromDirectory, byte[] from, int toDirectory, byte[] to, int flags) throws IOException;

        /** Whether {@code name} is taken in {@code directory} (without following a symbolic link there). */
        boolean exists(int directory, byte[] name) throws IOException;
    }

    private NoReplaceRename() {
    }

    /**
     * Renames {@code from} in {@code fromDirectory} to {@code to} in {@code toDirectory}; a
     * {@link java.nio.file.FileAlreadyExistsException} where {@code to} exists.
     */
    public static void rename(Calls calls, int fromDirectory, byte[] from, int toDirectory, byte[] to) throws IOException {
        int errno = calls.renameat2(fromDirectory, from, toDirectory, to, Fcntl.RENAME_NOREPLACE);
        if (errno == Errno.EINVAL || errno == Errno.ENOSYS) {
            if (calls.exists(toDirectory, to)) {
                throw Errno.forName(Errno.EEXIST, to);
            }
            errno = calls.renameat2(fromDirectory, from, toDirectory, to, 0);
        }
        if (errno != 0) {
            throw Errno.forName(errno, to);
        }
    }
}
