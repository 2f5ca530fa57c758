package dev.cpx.core.decide;

import dev.cpx.api.Diagnostic;
import dev.cpx.api.TargetMode;
import dev.cpx.core.fs.Stat;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * Where the command line's copies go, as GNU cp reads its last operand: into it, when it is a
 * directory (or {@code -t}); as it, when it is not (one source only) or with {@code -T}. cpx adds one
 * case: {@code --resume} of {@code cpx -r src dst} that was making {@code dst} the copy of
 * {@code src} goes on into {@code dst} itself, which now exists.
 */
public final class Targets {

    /** The answer. */
    public sealed interface Decision permits Into, As, Fail {
    }

    /** Each source is copied into the directory, under its own name. */
    public record Into() implements Decision {
    }

    /**
     * The one source is copied as the destination.
     *
     * @param resuming the destination is the unfinished copy of the source, gone on with ({@code --resume})
     */
    public record As(boolean resuming) implements Decision {
    }

    /** The command line cannot be carried out: nothing is copied. */
    public record Fail(Diagnostic why) implements Decision {
    }

    private Targets() {
    }

    /**
     * @param destination the destination operand's {@code stat} (links followed), or null when it fails
     * @param failure why {@code stat} failed (the system's reason), when it did
     * @param unfinishedCopy asked only with {@code --resume} of one directory into an existing directory:
     *     whether the destination is that directory's unfinished copy
     */
    public static Decision decide(TargetMode mode, int sources, Path operand, Stat destination, String failure,
            boolean resume, BooleanSupplier unfinishedCopy) {
        if (mode == TargetMode.NO_DIRECTORY) {
            return new As(false);
        }
        if (destination == null && (mode == TargetMode.DIRECTORY || sources > 1)) {
            return new Fail(Diagnostic.of(mode == TargetMode.DIRECTORY ? "target directory {0}" : "target {0}", operand, failure));
        }
        boolean isDir = destination != null && destination.isDirectory();
        if (isDir && mode == TargetMode.AUTO && sources == 1 && resume && unfinishedCopy.getAsBoolean()) {
            return new As(true);
        }
        if (!isDir && mode == TargetMode.DIRECTORY) {
            return new Fail(Diagnostic.of("target directory {0}", operand, "Not a directory"));
        }
        if (!isDir && sources > 1) {
            return new Fail(Diagnostic.of("target {0}", operand, "Not a directory"));
        }
        return isDir ? new Into() : new As(false);
    }
}
