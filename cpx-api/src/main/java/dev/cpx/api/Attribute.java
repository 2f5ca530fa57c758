package dev.cpx.api;

/** Attributes that {@code --preserve} can keep. */
public enum Attribute {
    MODE,
    OWNERSHIP,
    TIMESTAMPS,
    LINKS,
    XATTR,
    CONTEXT
}
