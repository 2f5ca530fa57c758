package dev.cpx.api;

/**
 * A moment of a running copy, for progress displays. Totals grow while the walk goes on.
 *
 * @param filesFound regular files seen so far
 * @param bytesFound bytes of the files seen so far
 * @param filesDone regular files finished (copied, skipped or failed)
 * @param bytesDone bytes copied so far, including inside files still in flight
 * @param walkDone whether the whole tree has been seen, so the totals are final
 */
public record Progress(long filesFound, long bytesFound, long filesDone, long bytesDone, boolean walkDone) {
}
