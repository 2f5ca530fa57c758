package dev.cpx.spi;

import java.io.InterruptedIOException;

/** Receives the bytes an engine has copied, so progress shows inside large files. */
@FunctionalInterface
public interface CopyProgress {

    /** Discards progress; never cancels. */
    CopyProgress NONE = bytes -> { };

    /**
     * Records that {@code bytes} more bytes are in the target.
     *
     * @throws InterruptedIOException when the copy has been cancelled; the engine must stop
     */
    void advance(long bytes) throws InterruptedIOException;
}
