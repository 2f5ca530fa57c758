package dev.cpx.api;

/**
 * What becomes of a failure to copy an extended attribute, as GNU cp decides it: with
 * {@code --preserve=xattr} asked for by name, each is reported and fails the copy; with
 * {@code --preserve=all}, each but "not supported" is reported and the copy goes on; with
 * {@code -a}, none is reported.
 */
public enum XattrFailures {
    /** Not reported ({@code -a}). */
    QUIET,
    /** Reported as a warning, except where the destination does not support them ({@code --preserve=all}). */
    REPORTED,
    /** Reported, and the entry's copy fails ({@code --preserve=xattr}). */
    REQUIRED
}
