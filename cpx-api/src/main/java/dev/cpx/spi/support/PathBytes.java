package dev.cpx.spi.support;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Path;

/**
 * File names are bytes on Linux. This class gets the exact bytes of a {@link Path} and makes a
 * {@code Path} from exact bytes, so a name that is not valid UTF-8 never goes through a lossy
 * {@code String}. It reads the JDK's own path object: through reflection where
 * {@code --add-opens java.base/sun.nio.fs=ALL-UNNAMED} opens it, else through {@link PrivateFields}
 * (JDK 17 to 23); where neither works, names that are valid in the platform encoding still work.
 *
 * <p>Strings that carry undecodable bytes use the "surrogate escape" convention (as Python's
 * PEP 383): byte {@code b} ≥ 0x80 that is not part of valid UTF-8 is the lone surrogate
 * {@code U+DC00 + b}. {@link #decode(byte[])} and {@link #encode(String)} convert both ways.
 */
public final class PathBytes {

    private static final MethodHandle NEW_PATH;
    private static final MethodHandle AS_BYTES;
    /** Without reflection: UnixPath's fields, and the class of the default file system's paths. */
    private static final PrivateFields.Slot PATH_FIELD;
    private static final PrivateFields.Slot FS_FIELD;

    static {
        MethodHandle newPath = null;
        MethodHandle asBytes = null;
        PrivateFields.Slot pathField = null;
        PrivateFields.Slot fsField = null;
        try {
            Class<?> unixPath = Class.forName("sun.nio.fs.UnixPath");
            if (!PrivateFields.opened(unixPath)) {
                throw new IllegalAccessException("sun.nio.fs is not opened");
            }
            Class<?> unixFs = Class.forName("sun.nio.fs.UnixFileSystem");
            var ctor = unixPath.getDeclaredConstructor(unixFs, byte[].class);
            ctor.setAccessible(true);
            var bytes = unixPath.getDeclaredMethod("asByteArray");
            bytes.setAccessible(true);
            // Typed with public classes once, and called with invokeExact: a plain invoke adapts its
            // call site's type at the first call of every thread, spinning classes each time.
            newPath = MethodHandles.lookup().unreflectConstructor(ctor)
                    .asType(MethodType.methodType(Path.class, FileSystem.class, byte[].class));
            asBytes = MethodHandles.lookup().unreflect(bytes).asType(MethodType.methodType(byte[].class, Path.class));
            if (!unixFs.isInstance(FileSystems.getDefault())) {
                newPath = null;
                asBytes = null;
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Not on Linux/Unix, or sun.nio.fs is not opened: the fields themselves, else strings.
            newPath = null;
            asBytes = null;
            Class<?> defaultPaths = FileSystems.getDefault().getPath("/").getClass();
            pathField = PrivateFields.find("sun.nio.fs.UnixPath", "path", byte[].class).orElse(null);
            if (pathField != null && pathField.owner() != defaultPaths) {
                pathField = null;
            }
            fsField = pathField == null ? null : fsField();
            if (fsField == null) {
                pathField = null;
            }
        }
        NEW_PATH = newPath;
        AS_BYTES = asBytes;
        PATH_FIELD = pathField;
        FS_FIELD = fsField;
    }

    private static PrivateFields.Slot fsField() {
        try {
            Class<?> unixFs = Class.forName("sun.nio.fs.UnixFileSystem");
            return unixFs.isInstance(FileSystems.getDefault())
                    ? PrivateFields.find("sun.nio.fs.UnixPath", "fs", unixFs).orElse(null) : null;
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    private PathBytes() {
    }

    /** Whether exact byte access works in this JVM. */
    public static boolean exact() {
        return NEW_PATH != null || PATH_FIELD != null;
    }

    /** The exact bytes of {@code path} as the kernel sees them. */
    public static byte[] of(Path path) {
        if (AS_BYTES != null && path.getFileSystem() == FileSystems.getDefault()) {
            try {
                return (byte[]) AS_BYTES.invokeExact(path);
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }
        if (PATH_FIELD != null && path.getClass() == PATH_FIELD.owner()) {
            return (byte[]) PATH_FIELD.getObject(path);
        }
        return encode(path.toString());
    }

    /**
     * A path of the default file system with exactly these bytes, as a command line gives them:
     * nothing is normalized, so a trailing slash stays (and makes the kernel follow a symbolic link
     * or insist on a directory, as for any program). Use {@link #withoutTrailingSlashes} before
     * taking names from it.
     */
    public static Path path(byte[] bytes) {
        if (NEW_PATH != null) {
            try {
                return (Path) NEW_PATH.invokeExact(FileSystems.getDefault(), bytes);
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }
        if (PATH_FIELD != null) {
            // What UnixPath(UnixFileSystem, byte[]) does: set the two fields.
            Object p = PrivateFields.allocate(PATH_FIELD.owner());
            FS_FIELD.putObject(p, FileSystems.getDefault());
            PATH_FIELD.putObject(p, bytes);
            PrivateFields.publish();
            return (Path) p;
        }
        return Path.of(decode(bytes));
    }

    /**
     * Whether {@code path} is the empty path {@code ""}: Java resolves it as the working directory,
     * the kernel as nothing ({@code ENOENT}), which is what an empty operand of cp names.
     *
     * @since 0.3.0
     */
    public static boolean isEmpty(Path path) {
        return of(path).length == 0;
    }

    /** Whether {@code path} was given with a trailing slash ({@code dir/}, not the root itself). */
    public static boolean hasTrailingSlash(Path path) {
        byte[] b = of(path);
        return b.length > 1 && b[b.length - 1] == '/';
    }

    /** {@code path} without its trailing slashes ({@code /} stays {@code /}), so its last name is a name. */
    public static Path withoutTrailingSlashes(Path path) {
        byte[] b = of(path);
        int n = b.length;
        while (n > 1 && b[n - 1] == '/') {
            n--;
        }
        return n == b.length ? path : path(java.util.Arrays.copyOf(b, n));
    }

    /** A path from a string that may carry surrogate-escaped bytes (see the class comment). */
    public static Path path(String s) {
        return path(encode(s));
    }

    /** Bytes of a string, turning surrogate escapes back into the bytes they stand for. */
    public static byte[] encode(String s) {
        boolean escaped = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0xDC80 && c <= 0xDCFF && !(i > 0 && Character.isHighSurrogate(s.charAt(i - 1)))) {
                escaped = true;
                break;
            }
        }
        if (!escaped) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        ByteBuffer out = ByteBuffer.allocate(s.length() * 3);
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0xDC80 && c <= 0xDCFF && !(i > 0 && Character.isHighSurrogate(s.charAt(i - 1)))) {
                out.put(s.substring(start, i).getBytes(StandardCharsets.UTF_8));
                out.put((byte) (c - 0xDC00));
                start = i + 1;
            }
        }
        out.put(s.substring(start).getBytes(StandardCharsets.UTF_8));
        byte[] result = new byte[out.position()];
        out.flip().get(result);
        return result;
    }

    /** A string for these bytes: UTF-8 where valid, each other byte as a surrogate escape. */
    public static String decode(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return decodeEscaping(bytes);
        }
    }

    private static String decodeEscaping(byte[] bytes) {
        var decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length * 2);
        while (true) {
            var result = decoder.decode(in, out, true);
            if (result.isError()) {
                for (int i = 0; i < result.length(); i++) {
                    out.put((char) (0xDC00 + (in.get() & 0xFF)));
                }
            } else {
                break;
            }
        }
        decoder.flush(out);
        return out.flip().toString();
    }
}
