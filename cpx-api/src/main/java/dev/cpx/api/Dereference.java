package dev.cpx.api;

/** Which symbolic links in the sources are followed ({@code -P}, {@code -H}, {@code -L}). */
public enum Dereference {
    /** {@code -P}: copy every symbolic link as a link. */
    NEVER,
    /** {@code -H}: follow links named on the command line, copy the others as links. */
    COMMAND_LINE,
    /** {@code -L}: follow every link and copy what it points to. */
    ALWAYS
}
