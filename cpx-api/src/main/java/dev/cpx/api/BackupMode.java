package dev.cpx.api;

/** How an existing destination is backed up before it is replaced ({@code --backup}). */
public enum BackupMode {
    /** No backup. */
    NONE,
    /** {@code name~}, or the configured suffix. */
    SIMPLE,
    /** {@code name.~N~}. */
    NUMBERED,
    /** Numbered if numbered backups exist already, else simple. */
    EXISTING
}
