package dev.cpx.spi.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * Linux {@code errno} numbers (generic ones, as on x86_64 and aarch64), their messages in glibc's
 * exact English words, and the exceptions the rest of cpx understands: one table for every engine
 * that calls the kernel (JNA's, FFM's), so a failure reads the same whichever made the call. The
 * table is glibc's {@code strerror} for every number it knows (1 to 133, taken from glibc 2.36), so
 * messages stay English and stable whatever the process locale, and no native call is needed to word
 * one; other numbers read {@code Unknown error N}, as glibc says.
 *
 * @since 0.2.0
 */
public final class Errno {

    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int ENXIO = 6;
    public static final int E2BIG = 7;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int EEXIST = 17;
    public static final int EXDEV = 18;
    public static final int ENODEV = 19;
    public static final int ENOTDIR = 20;
    public static final int EISDIR = 21;
    public static final int EINVAL = 22;
    public static final int ENFILE = 23;
    public static final int EMFILE = 24;
    public static final int ENOTTY = 25;
    public static final int ETXTBSY = 26;
    public static final int EFBIG = 27;
    public static final int ENOSPC = 28;
    public static final int ESPIPE = 29;
    public static final int EROFS = 30;
    public static final int EMLINK = 31;
    public static final int EPIPE = 32;
    public static final int ERANGE = 34;
    public static final int ENAMETOOLONG = 36;
    public static final int ENOSYS = 38;
    public static final int ENOTEMPTY = 39;
    public static final int ELOOP = 40;
    public static final int ENODATA = 61;
    public static final int EOVERFLOW = 75;
    public static final int EOPNOTSUPP = 95;
    /** Same number as {@link #EOPNOTSUPP} on Linux. */
    public static final int ENOTSUP = EOPNOTSUPP;
    public static final int ESTALE = 116;
    public static final int EDQUOT = 122;

    /** glibc's {@code strerror} text of errno i + 1; null where it has none. */
    private static final String[] MESSAGES = {
        "Operation not permitted",
        "No such file or directory",
        "No such process",
        "Interrupted system call",
        "Input/output error",
        "No such device or address",
        "Argument list too long",
        "Exec format error",
        "Bad file descriptor",
        "No child processes",
        "Resource temporarily unavailable",
        "Cannot allocate memory",
        "Permission denied",
        "Bad address",
        "Block device required",
        "Device or resource busy",
        "File exists",
        "Invalid cross-device link",
        "No such device",
        "Not a directory",
        "Is a directory",
        "Invalid argument",
        "Too many open files in system",
        "Too many open files",
        "Inappropriate ioctl for device",
        "Text file busy",
        "File too large",
        "No space left on device",
        "Illegal seek",
        "Read-only file system",
        "Too many links",
        "Broken pipe",
        "Numerical argument out of domain",
        "Numerical result out of range",
        "Resource deadlock avoided",
        "File name too long",
        "No locks available",
        "Function not implemented",
        "Directory not empty",
        "Too many levels of symbolic links",
        null,
        "No message of desired type",
        "Identifier removed",
        "Channel number out of range",
        "Level 2 not synchronized",
        "Level 3 halted",
        "Level 3 reset",
        "Link number out of range",
        "Protocol driver not attached",
        "No CSI structure available",
        "Level 2 halted",
        "Invalid exchange",
        "Invalid request descriptor",
        "Exchange full",
        "No anode",
        "Invalid request code",
        "Invalid slot",
        null,
        "Bad font file format",
        "Device not a stream",
        "No data available",
        "Timer expired",
        "Out of streams resources",
        "Machine is not on the network",
        "Package not installed",
        "Object is remote",
        "Link has been severed",
        "Advertise error",
        "Srmount error",
        "Communication error on send",
        "Protocol error",
        "Multihop attempted",
        "RFS specific error",
        "Bad message",
        "Value too large for defined data type",
        "Name not unique on network",
        "File descriptor in bad state",
        "Remote address changed",
        "Can not access a needed shared library",
        "Accessing a corrupted shared library",
        ".lib section in a.out corrupted",
        "Attempting to link in too many shared libraries",
        "Cannot exec a shared library directly",
        "Invalid or incomplete multibyte or wide character",
        "Interrupted system call should be restarted",
        "Streams pipe error",
        "Too many users",
        "Socket operation on non-socket",
        "Destination address required",
        "Message too long",
        "Protocol wrong type for socket",
        "Protocol not available",
        "Protocol not supported",
        "Socket type not supported",
        "Operation not supported",
        "Protocol family not supported",
        "Address family not supported by protocol",
        "Address already in use",
        "Cannot assign requested address",
        "Network is down",
        "Network is unreachable",
        "Network dropped connection on reset",
        "Software caused connection abort",
        "Connection reset by peer",
        "No buffer space available",
        "Transport endpoint is already connected",
        "Transport endpoint is not connected",
        "Cannot send after transport endpoint shutdown",
        "Too many references: cannot splice",
        "Connection timed out",
        "Connection refused",
        "Host is down",
        "No route to host",
        "Operation already in progress",
        "Operation now in progress",
        "Stale file handle",
        "Structure needs cleaning",
        "Not a XENIX named type file",
        "No XENIX semaphores available",
        "Is a named type file",
        "Remote I/O error",
        "Disk quota exceeded",
        "No medium found",
        "Wrong medium type",
        "Operation canceled",
        "Required key not available",
        "Key has expired",
        "Key has been revoked",
        "Key was rejected by service",
        "Owner died",
        "State not recoverable",
        "Operation not possible due to RF-kill",
        "Memory page has hardware error",
    };

    private Errno() {
    }

    /** The {@code strerror(3)} text of {@code errno}, e.g. {@code No space left on device}. */
    public static String message(int errno) {
        if (errno == 0) {
            return "Success";
        }
        if (errno > 0 && errno <= MESSAGES.length && MESSAGES[errno - 1] != null) {
            return MESSAGES[errno - 1];
        }
        return "Unknown error " + errno;
    }

    /**
     * Whether a copy method failing with {@code errno} before it copied anything means "not here,
     * try the next method" rather than a real failure (as {@code EIO} or {@code ENOSPC} are).
     */
    public static boolean meansUnsupported(int errno) {
        return errno == ENOSYS || errno == EXDEV || errno == EINVAL || errno == EOPNOTSUPP
                || errno == EPERM || errno == EBADF || errno == ETXTBSY;
    }

    /** Whether {@code open(O_TMPFILE)} failing with {@code errno} means the file system has no unnamed files (use a temporary name). */
    public static boolean meansNoUnnamedFiles(int errno) {
        return errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL;
    }

    /**
     * Whether {@code linkat(fd, "", ..., AT_EMPTY_PATH)} failing with {@code errno} means it is not
     * allowed here (it needs CAP_DAC_READ_SEARCH): link through {@code /proc/self/fd/N} instead.
     */
    public static boolean meansLinkByDescriptorRefused(int errno) {
        return errno == ENOENT || errno == EPERM || errno == EINVAL;
    }

    /** An exception for a failed data copy; its message is the system's reason. */
    public static IOException copyFailure(int errno) {
        return new IOException(message(errno));
    }

    /**
     * What closing a file written through its descriptor answers when {@code close} failed with
     * {@code errno}: NFS, CIFS and FUSE file systems report a write error (a quota, a full server)
     * only there, thrown as {@link UncheckedIOException} (what {@link DescriptorChannel}'s close
     * hands on); {@code EINTR} leaves the descriptor closed on Linux and says nothing of the data, so
     * nothing is thrown for it.
     */
    public static void writtenCloseFailed(int errno) {
        if (errno != EINTR) {
            throw new UncheckedIOException(copyFailure(errno));
        }
    }

    /**
     * The {@code java.nio.file} exception for {@code errno} on {@code path}, as the JDK would throw it:
     * specific types where one exists, else a {@link FileSystemException} whose reason is the
     * {@code strerror} text.
     */
    public static FileSystemException forPath(int errno, Path path) {
        return forFile(errno, path.toString());
    }

    /**
     * What a call changing an open file through its descriptor {@code fd} answers when it failed with
     * {@code errno}: false for a descriptor that cannot change its file ({@code O_PATH}: {@code EBADF}),
     * so the caller goes by path instead; else the error, thrown as for {@code /proc/self/fd/FD}.
     */
    public static boolean notThroughDescriptor(int errno, int fd) throws FileSystemException {
        if (errno == EBADF) {
            return false;
        }
        throw forPath(errno, Path.of("/proc/self/fd/" + fd));
    }

    /** {@link #forPath} for a file known by its name in an open directory. */
    public static FileSystemException forName(int errno, byte[] name) {
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
