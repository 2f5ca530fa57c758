package dev.cpx.core.fs;

import dev.cpx.api.Diagnostic;
import java.io.IOException;

/** Which side of a copy a JDK exception belongs to (its reason text is {@link Diagnostic#reasonOf}). */
public final class Errors {

    private Errors() {
    }

    /** Whether the failure is the destination's (full disk, quota, read-only) rather than the source's. */
    public static boolean isWriteSide(IOException e) {
        String r = Diagnostic.reasonOf(e);
        return r.equals("No space left on device") || r.equals("Disk quota exceeded") || r.equals("File too large")
                || r.equals("Read-only file system");
    }
}
