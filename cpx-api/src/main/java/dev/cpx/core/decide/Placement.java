package dev.cpx.core.decide;

/**
 * Where an entry's destination comes from, which decides what is known of it before looking:
 * inside a directory this run just created (nothing can be there), inside one that existed, or
 * named on the command line (GNU's "command-line argument", subject to the just-created checks).
 */
public enum Placement {
    /** Its parent directory was just created by this run: the destination cannot exist. */
    NEW_PARENT,
    /** Inside a directory that existed: the destination may exist. */
    EXISTING_PARENT,
    /**
     * As {@link #EXISTING_PARENT}, in a tree made under a staging name (a plan's staged operand): the
     * destination may exist, and a new file is made under its own name at once.
     */
    STAGED_PARENT,
    /** A command-line operand's destination. */
    OPERAND;

    /** Whether the destination is known not to exist. */
    public boolean absent() {
        return this == NEW_PARENT;
    }
}
