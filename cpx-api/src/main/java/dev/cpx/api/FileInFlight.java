package dev.cpx.api;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A file whose data is being copied at this moment: lets a progress display name the file a long
 * copy is busy with, and how far into it the copy is.
 *
 * @param source the file being read
 * @param target the name the copy will have
 * @param size the source's size when its copy started (a special file read as data has size 0)
 * @param bytesDone bytes of this file copied so far
 * @param elapsed time since its copy started
 */
public record FileInFlight(Path source, Path target, long size, long bytesDone, Duration elapsed) {
}
