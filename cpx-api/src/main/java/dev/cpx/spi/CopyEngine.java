package dev.cpx.spi;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * A copy engine moves the bytes of one regular file, or of one range of it, from an open source
 * channel to an open target channel.
 *
 * <p>Everything else (walking, directories, links, metadata, errors, progress, scheduling) belongs
 * to the scheduler, written once above every engine. Engines are plugins: they are found with
 * {@link java.util.ServiceLoader} through {@code META-INF/services/dev.cpx.spi.CopyEngine}, on the
 * class path or in a plugin directory. An implementation must be thread safe: the scheduler calls
 * it from many workers at once, each with its own channels.
 */
public interface CopyEngine {

    /** Short, stable, lower-case name used with {@code --engine}, e.g. {@code native}. */
    String id();

    /** One line for {@code --list-engines}. */
    String description();

    /** Version of the engine implementation; by default the jar manifest's implementation version. */
    default String version() {
        String v = getClass().getPackage().getImplementationVersion();
        return v == null ? "unknown" : v;
    }

    /**
     * Whether this engine can run here (operating system, native library, JVM flags). An unavailable
     * engine is listed but never chosen; this method must not throw.
     */
    Availability availability();

    /** Preference of {@code --engine=auto} among available engines: the highest wins. */
    default int priority() {
        return 0;
    }

    /**
     * Copies {@code request.length()} bytes (or up to end of file for {@link CopyRequest#TO_END})
     * starting at {@code request.position()} in the source to the same position in the target.
     *
     * @return the number of bytes of the range now present in the target; less than the length only
     *     when the source ended early
     * @throws IOException when the copy failed; the target's content is then undefined
     */
    long copy(CopyRequest request) throws IOException;

    /**
     * Makes the target share the source's extents (a reflink, {@code FICLONE}), when the engine and
     * the file system can. Engines that cannot return {@link CloneResult#unsupported(String)}.
     */
    default CloneResult cloneFile(FileChannel source, FileChannel target) throws IOException {
        return CloneResult.unsupported("Operation not supported");
    }
}
