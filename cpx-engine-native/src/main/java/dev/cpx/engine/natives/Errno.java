package dev.cpx.engine.natives;

import com.sun.jna.Native;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * Linux {@code errno} numbers (generic ones, as on x86_64 and aarch64), their messages in glibc's
 * exact English words, and the exceptions the rest of cpx understands. The table keeps messages
 * English and stable whatever the process locale; numbers missing from it ask the C library's
 * {@code strerror}.
 */
final class Errno {

    static final int EPERM = 1;
    static final int ENOENT = 2;
    static final int EINTR = 4;
    static final int EIO = 5;
    static final int ENXIO = 6;
    static final int E2BIG = 7;
    static final int EBADF = 9;
    static final int EAGAIN = 11;
    static final int ENOMEM = 12;
    static final int EACCES = 13;
    static final int EFAULT = 14;
    static final int EBUSY = 16;
    static final int EEXIST = 17;
    static final int EXDEV = 18;
    static final int ENODEV = 19;
    static final int ENOTDIR = 20;
    static final int EISDIR = 21;
    static final int EINVAL = 22;
    static final int ENFILE = 23;
    static final int EMFILE = 24;
    static final int ENOTTY = 25;
    static final int ETXTBSY = 26;
    static final int EFBIG = 27;
    static final int ENOSPC = 28;
    static final int ESPIPE = 29;
    static final int EROFS = 30;
    static final int EMLINK = 31;
    static final int EPIPE = 32;
    static final int ERANGE = 34;
    static final int ENAMETOOLONG = 36;
    static final int ENOSYS = 38;
    static final int ENOTEMPTY = 39;
    static final int ELOOP = 40;
    static final int ENODATA = 61;
    static final int EOVERFLOW = 75;
    static final int EOPNOTSUPP = 95;
    /** Same number as {@link #EOPNOTSUPP} on Linux. */
    static final int ENOTSUP = EOPNOTSUPP;
    static final int ESTALE = 116;
    static final int EDQUOT = 122;

    private static final String[] MESSAGES = new String[EDQUOT + 1];

    static {
        MESSAGES[EPERM] = "Operation not permitted";
        MESSAGES[ENOENT] = "No such file or directory";
        MESSAGES[EINTR] = "Interrupted system call";
        MESSAGES[EIO] = "Input/output error";
        MESSAGES[ENXIO] = "No such device or address";
        MESSAGES[E2BIG] = "Argument list too long";
        MESSAGES[EBADF] = "Bad file descriptor";
        MESSAGES[EAGAIN] = "Resource temporarily unavailable";
        MESSAGES[ENOMEM] = "Cannot allocate memory";
        MESSAGES[EACCES] = "Permission denied";
        MESSAGES[EFAULT] = "Bad address";
        MESSAGES[EBUSY] = "Device or resource busy";
        MESSAGES[EEXIST] = "File exists";
        MESSAGES[EXDEV] = "Invalid cross-device link";
        MESSAGES[ENODEV] = "No such device";
        MESSAGES[ENOTDIR] = "Not a directory";
        MESSAGES[EISDIR] = "Is a directory";
        MESSAGES[EINVAL] = "Invalid argument";
        MESSAGES[ENFILE] = "Too many open files in system";
        MESSAGES[EMFILE] = "Too many open files";
        MESSAGES[ENOTTY] = "Inappropriate ioctl for device";
        MESSAGES[ETXTBSY] = "Text file busy";
        MESSAGES[EFBIG] = "File too large";
        MESSAGES[ENOSPC] = "No space left on device";
        MESSAGES[ESPIPE] = "Illegal seek";
        MESSAGES[EROFS] = "Read-only file system";
        MESSAGES[EMLINK] = "Too many links";
        MESSAGES[EPIPE] = "Broken pipe";
        MESSAGES[ERANGE] = "Numerical result out of range";
        MESSAGES[ENAMETOOLONG] = "File name too long";
        MESSAGES[ENOSYS] = "Function not implemented";
        MESSAGES[ENOTEMPTY] = "Directory not empty";
        MESSAGES[ELOOP] = "Too many levels of symbolic links";
        MESSAGES[ENODATA] = "No data available";
        MESSAGES[EOVERFLOW] = "Value too large for defined data type";
        MESSAGES[EOPNOTSUPP] = "Operation not supported";
        MESSAGES[ESTALE] = "Stale file handle";
        MESSAGES[EDQUOT] = "Disk quota exceeded";
    }

    private Errno() {
    }

    /** The {@code strerror(3)} text of {@code errno}, e.g. {@code No space left on device}. */
    static String message(int errno) {
        if (errno > 0 && errno < MESSAGES.length && MESSAGES[errno] != null) {
            return MESSAGES[errno];
        }
        String text = null;
        try {
            text = LibC.strerror(errno);
        } catch (LinkageError e) {
            // No C library: the number will do.
        }
        return text == null || text.isEmpty() ? "Unknown error " + errno : text;
    }

    /** This thread's {@code errno} after its last native call. */
    static int last() {
        return Native.getLastError();
    }

    /**
     * Whether a copy method failing with {@code errno} before it copied anything means "not here,
     * try the next method" rather than a real failure (as {@code EIO} or {@code ENOSPC} are).
     */
    static boolean meansUnsupported(int errno) {
        return errno == ENOSYS || errno == EXDEV || errno == EINVAL || errno == EOPNOTSUPP
                || errno == EPERM || errno == EBADF || errno == ETXTBSY;
    }

    /** An exception for a failed data copy; its message is the system's reason. */
    static IOException copyFailure(int errno) {
        return new IOException(message(errno));
    }

    /**
     * The {@code java.nio.file} exception for {@code errno} on {@code path}, as the JDK would throw it:
     * specific types where one exists, else a {@link FileSystemException} whose reason is the
     * {@code strerror} text.
     */
    static FileSystemException forPath(int errno, Path path) {
        return forFile(errno, path.toString());
    }

    /** {@link #forPath} for a file known by its name in an open directory. */
    static FileSystemException forName(int errno, byte[] name) {
        return forFile(errno, PathBytes.decode(name));
    }

    private static FileSystemException forFile(int errno, String file) {
        return switch (errno) {
            case ENOENT -> new NoSuchFileException(file);
            case EACCES -> new AccessDeniedException(file);
            case EEXIST -> new FileAlreadyExistsException(file);
            case ENOTDIR -> new NotDirectoryException(file);
            default -> new FileSystemException(file, null, message(errno));
        };
    }
}
