package dev.cpx.api;

/** What is made at the destination for each non-directory source. */
public enum CopyMode {
    /** A copy of the data (the default). */
    DATA,
    /** {@code -l}: a hard link to the source. */
    HARD_LINK,
    /** {@code -s}: a symbolic link to the source. */
    SYMBOLIC_LINK,
    /** {@code --attributes-only}: the file without its data, with the preserved attributes. */
    ATTRIBUTES_ONLY
}
