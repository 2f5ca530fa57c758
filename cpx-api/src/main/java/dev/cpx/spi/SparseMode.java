package dev.cpx.spi;

/** How holes in sparse files are treated ({@code --sparse}). */
public enum SparseMode {
    /** Keep the source's holes where the engine can find them (the default). */
    AUTO,
    /** Keep holes and also turn runs of zero blocks into holes. */
    ALWAYS,
    /** Write every byte; the copy has no holes. */
    NEVER
}
