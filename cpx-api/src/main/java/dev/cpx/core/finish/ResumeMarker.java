package dev.cpx.core.finish;

import dev.cpx.core.fs.Effects;
import dev.cpx.core.fs.Stat;
import dev.cpx.spi.PosixExtras;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Remembers, on a destination directory, that it is being made as the copy of a source directory
 * (GNU's rule when DEST did not exist: {@code cpx -r src dst} makes {@code dst} the copy). A run
 * interrupted half way leaves {@code dst} existing, where GNU's rule would now copy into
 * {@code dst/src}; with {@code --resume}, the marker says to continue into {@code dst} itself. It is
 * an extended attribute on the directory (no directory entry is added), removed when the copy
 * completes; without native support there is no marker.
 */
public final class ResumeMarker {

    static final String NAME = "user.cpx.copy-of";

    private final PosixExtras extras;
    private final Effects effects;

    public ResumeMarker(PosixExtras extras, Effects effects) {
        this.extras = extras;
        this.effects = effects;
    }

    /** Whether this run can mark (native support). */
    public boolean possible() {
        return extras.availability().available();
    }

    /** Marks {@code copy} as the copy in progress of the directory {@code source}. */
    public void mark(Path copy, Stat source) {
        try {
            effects.setXattr(copy, NAME, identity(source));
        } catch (IOException | RuntimeException e) {
            // No marker where the file system takes no extended attributes: --resume then follows GNU's rule.
        }
    }

    /** Whether {@code dir} is marked as the unfinished copy of {@code source}. */
    public boolean isCopyOf(Path dir, Stat source) {
        try {
            return Arrays.equals(extras.getXattr(dir, NAME, true), identity(source));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The copy is complete: the marker goes. */
    public void clear(Path copy) {
        try {
            effects.removeXattr(copy, NAME);
        } catch (IOException | RuntimeException e) {
            // Nothing to clear.
        }
    }

    private static byte[] identity(Stat source) {
        return (source.dev() + ":" + source.ino()).getBytes(StandardCharsets.US_ASCII);
    }
}
