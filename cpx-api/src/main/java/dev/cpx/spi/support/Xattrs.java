package dev.cpx.spi.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * The Java side of the extended attribute calls ({@code listxattr}, {@code getxattr}), the same for
 * every engine that makes them: names as Latin-1 (one char per byte, so every byte survives), the
 * list's NUL-separated names, and the two-call protocol of asking a size and then reading.
 *
 * @since 0.2.0
 */
public final class Xattrs {

    /** Attempts at reading a list or value that keeps growing between the size query and the read. */
    private static final int ERANGE_RETRIES = 8;

    private Xattrs() {
    }

    /** One call of a function that fills a buffer: with null it returns the size needed; -1 on failure. */
    @FunctionalInterface
    public interface SizedCall {
        long call(byte[] buffer);
    }

    /**
     * The usual two calls: ask the size, then read into a buffer of that size; if the value grew in
     * between ({@code ERANGE}), ask again.
     *
     * @param errno this thread's {@code errno} after a failed call
     */
    public static byte[] readSized(Path path, SizedCall call, IntSupplier errno) throws IOException {
        return readSized(path, -1, call, errno);
    }

    /**
     * {@link #readSized(Path, SizedCall, IntSupplier)} of the open file {@code fd}, whose failures
     * name {@code /proc/self/fd/FD} (made only then).
     *
     * @since 0.3.0
     */
    public static byte[] readSized(int fd, SizedCall call, IntSupplier errno) throws IOException {
        return readSized(null, fd, call, errno);
    }

    private static byte[] readSized(Path path, int fd, SizedCall call, IntSupplier errno) throws IOException {
        for (int attempt = 0; attempt < ERANGE_RETRIES; attempt++) {
            long size = call.call(null);
            if (size < 0) {
                throw Errno.forPath(errno.getAsInt(), named(path, fd));
            }
            if (size == 0) {
                return new byte[0];
            }
            byte[] buffer = new byte[(int) size];
            long n = call.call(buffer);
            if (n >= 0) {
                return n == buffer.length ? buffer : Arrays.copyOf(buffer, (int) n);
            }
            int e = errno.getAsInt();
            if (e != Errno.ERANGE) {
                throw Errno.forPath(e, named(path, fd));
            }
        }
        throw Errno.forPath(Errno.ERANGE, named(path, fd));
    }

    private static Path named(Path path, int fd) {
        return path != null ? path : Path.of("/proc/self/fd/" + fd);
    }

    /** The names in a {@code listxattr} list (each NUL-terminated). */
    public static List<String> names(byte[] list) {
        List<String> names = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < list.length; i++) {
            if (list[i] == 0) {
                if (i > from) {
                    names.add(new String(list, from, i - from, StandardCharsets.ISO_8859_1));
                }
                from = i + 1;
            }
        }
        return names;
    }

    /** An attribute name as Latin-1 bytes (one byte per char), NUL-terminated; {@code EINVAL} for a char that is none. */
    public static byte[] cName(Path path, String name) throws FileSystemException {
        byte[] bytes = new byte[name.length() + 1];
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == 0 || c > 0xFF) {
                throw new FileSystemException(path.toString(), null, Errno.message(Errno.EINVAL));
            }
            bytes[i] = (byte) c;
        }
        return bytes;
    }
}
