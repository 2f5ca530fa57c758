package dev.cpx.api;

/** How the destination operand is read. */
public enum TargetMode {
    /** GNU's default: into the destination if it is a directory, else as the new name. */
    AUTO,
    /** {@code -t DIR}: always into the destination directory. */
    DIRECTORY,
    /** {@code -T}: the destination is the copy itself, never a directory to copy into. */
    NO_DIRECTORY
}
