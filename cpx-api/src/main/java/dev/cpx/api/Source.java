package dev.cpx.api;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A source operand as the user gave it.
 *
 * @param path the operand (normalized: no trailing slash)
 * @param trailingSlash whether it was written with a trailing slash, which follows a symbolic link
 *     named by the operand as the kernel does for {@code link/}
 */
public record Source(Path path, boolean trailingSlash) {

    public Source {
        Objects.requireNonNull(path, "path");
    }

    public static Source of(Path path) {
        return new Source(path, false);
    }
}
