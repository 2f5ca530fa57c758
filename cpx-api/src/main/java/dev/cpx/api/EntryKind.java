package dev.cpx.api;

/** The kind of a source entry. */
public enum EntryKind {
    FILE,
    DIRECTORY,
    SYMLINK,
    SPECIAL,
    /** An operand or entry whose kind could not be read. */
    UNKNOWN
}
