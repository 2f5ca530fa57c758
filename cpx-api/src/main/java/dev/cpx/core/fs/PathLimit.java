package dev.cpx.core.fs;

import dev.cpx.spi.support.PathBytes;
import java.nio.file.Path;

/**
 * GNU cp's reach: it names every file by its whole path, so the kernel refuses one of
 * {@code PATH_MAX} bytes or more ({@code ENAMETOOLONG}) at the first call GNU makes for it (the
 * source's {@code stat}, then the copy's {@code stat} or creation). cpx reaches entries through the
 * directories it holds, which has no such limit, and asks this where GNU's reach ends, so that a tree
 * that deep is copied as far as GNU cp copies it, and no deeper.
 */
public final class PathLimit {

    /** Linux's {@code PATH_MAX}, the terminating NUL included: a path of this many bytes is refused. */
    private static final int PATH_MAX = 4096;

    private PathLimit() {
    }

    /** Whether {@code path} is beyond GNU cp's reach. */
    public static boolean tooLong(Path path) {
        return PathBytes.of(path).length >= PATH_MAX;
    }

    /** Whether the entry of {@code nameBytes} bytes in a directory whose path has {@code directoryBytes} bytes is beyond it. */
    public static boolean tooLong(int directoryBytes, int nameBytes) {
        return directoryBytes + 1 + nameBytes >= PATH_MAX;
    }
}
