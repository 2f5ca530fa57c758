package dev.cpx.core;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;

/** Turns JDK exceptions back into the system's reason text, as {@code strerror} would give it. */
public final class Errors {

    private Errors() {
    }

    /** The reason of {@code e} in the words of {@code strerror(3)}, e.g. {@code No space left on device}. */
    public static String reason(Throwable e) {
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "File exists";
        }
        if (e instanceof NotDirectoryException) {
            return "Not a directory";
        }
        if (e instanceof DirectoryNotEmptyException) {
            return "Directory not empty";
        }
        if (e instanceof NotLinkException) {
            return "Invalid argument";
        }
        if (e instanceof FileSystemLoopException) {
            return "Too many levels of symbolic links";
        }
        if (e instanceof InterruptedIOException) {
            return "Interrupted";
        }
        String reason = e instanceof FileSystemException fse ? fse.getReason() : e.getMessage();
        if (reason == null) {
            return e.getClass().getSimpleName();
        }
        // The JDK decorates ELOOP when it follows links for attributes.
        int decorated = reason.indexOf(" or unable to access attributes of symbolic link");
        if (decorated > 0) {
            reason = reason.substring(0, decorated);
        }
        return reason;
    }

    /** Whether the failure is the destination's (full disk, quota, read-only) rather than the source's. */
    public static boolean isWriteSide(IOException e) {
        String r = reason(e);
        return r.equals("No space left on device") || r.equals("Disk quota exceeded") || r.equals("File too large")
                || r.equals("Read-only file system");
    }
}
