package dev.cpx.api;

/** Whether copies share extents with their source ({@code --reflink}). */
public enum ReflinkMode {
    /** Always copy the bytes. */
    NEVER,
    /** Clone where the file system can, else copy (GNU cp 9's default). */
    AUTO,
    /** Clone or fail. */
    ALWAYS
}
