package dev.cpx.api;

/** What happens when a destination file exists ({@code -i}, {@code -n}). */
public enum OverwritePolicy {
    /** Replace it (the default). */
    OVERWRITE,
    /** {@code -n}: keep it and skip the source. */
    NO_CLOBBER,
    /** {@code -i}: ask through {@link CopyListener#confirm}. */
    ASK
}
