package dev.cpx.spi;

import java.util.Objects;

/**
 * Outcome of {@link CopyEngine#cloneFile}: "unsupported here" is a value, not an exception, so the
 * scheduler can fall back to a copy or report the reason, as {@code --reflink} asks.
 *
 * @param cloned true when the target now shares the source's extents
 * @param reason the system's reason when not cloned (e.g. {@code Operation not supported})
 */
public record CloneResult(boolean cloned, String reason) {

    private static final CloneResult CLONED = new CloneResult(true, "");

    public CloneResult {
        Objects.requireNonNull(reason, "reason");
    }

    public static CloneResult success() {
        return CLONED;
    }

    public static CloneResult unsupported(String reason) {
        return new CloneResult(false, reason);
    }
}
