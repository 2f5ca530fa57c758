package dev.cpx.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Remembers, on a destination directory, that it is being made as the copy of a source directory
 * (GNU's rule when DEST did not exist: {@code cpx -r src dst} makes {@code dst} the copy). A run
 * interrupted half way leaves {@code dst} existing, where GNU's rule would now copy into
 * {@code dst/src}; with {@code --resume}, the marker says to continue into {@code dst} itself. It is
 * an extended attribute on the directory (no directory entry is added), removed when the copy
 * completes; without native support there is no marker.
 */
final class ResumeMarker {

    static final String NAME = "user.cpx.copy-of";

    private final CopyRun run;

    ResumeMarker(CopyRun run) {
        this.run = run;
    }

    /** Whether this run can mark (native support, not a dry run). */
    boolean possible() {
        return run.extras != null && !run.options.dryRun();
    }

    /** Marks {@code copy} as the copy in progress of the directory {@code source}. */
    void mark(Path copy, Stat source) {
        if (run.extras == null || run.options.dryRun()) {
            return;
        }
        try {
            run.extras.setXattr(copy, NAME, identity(source), true);
        } catch (IOException | RuntimeException e) {
            // No marker where the file system takes no extended attributes: --resume then follows GNU's rule.
        }
    }

    /** Whether {@code dir} is marked as the unfinished copy of {@code source}. */
    boolean isCopyOf(Path dir, Stat source) {
        if (run.extras == null) {
            return false;
        }
        try {
            return java.util.Arrays.equals(run.extras.getXattr(dir, NAME, true), identity(source));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The copy is complete: the marker goes. */
    void clear(Path copy) {
        if (run.extras == null || run.options.dryRun()) {
            return;
        }
        try {
            run.extras.removeXattr(copy, NAME, true);
        } catch (IOException | RuntimeException e) {
            // Nothing to clear.
        }
    }

    private static byte[] identity(Stat source) {
        return (source.dev() + ":" + source.ino()).getBytes(StandardCharsets.US_ASCII);
    }
}
