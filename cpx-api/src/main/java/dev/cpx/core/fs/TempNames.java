package dev.cpx.core.fs;

import dev.cpx.spi.support.PathBytes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The temporary name a new file is written under, in its destination directory, until it is
 * complete and renamed into place: {@code .NAME.cpx-part}. The name is derived from the final
 * name, so an interrupted copy's partial file is found again by {@code --resume}. Names that would
 * exceed the 255-byte limit use a digest of the final name instead.
 */
public final class TempNames {

    /** Suffix of every partial file. */
    public static final String SUFFIX = ".cpx-part";

    private static final int NAME_MAX = 255;

    private TempNames() {
    }

    /** The partial-file path for the final path {@code target}. */
    public static Path of(Path target) {
        return of(target, SUFFIX);
    }

    /** {@code .NAME} followed by {@code suffix} (a digest of the name where that is too long), next to {@code target}. */
    public static Path of(Path target, String suffixText) {
        byte[] name = PathBytes.of(target.getFileName());
        byte[] suffix = suffixText.getBytes(StandardCharsets.US_ASCII);
        byte[] temp;
        if (name.length + 1 + suffix.length <= NAME_MAX) {
            temp = new byte[name.length + 1 + suffix.length];
            temp[0] = '.';
            System.arraycopy(name, 0, temp, 1, name.length);
            System.arraycopy(suffix, 0, temp, 1 + name.length, suffix.length);
        } else {
            temp = (".cpx-" + digest(name) + suffixText).getBytes(StandardCharsets.US_ASCII);
        }
        return target.resolveSibling(PathBytes.path(temp));
    }

    /** Whether {@code name} is the name of a partial file. */
    public static boolean isTemp(Path name) {
        byte[] b = PathBytes.of(name);
        byte[] suffix = SUFFIX.getBytes(StandardCharsets.US_ASCII);
        if (b.length <= suffix.length + 1 || b[0] != '.') {
            return false;
        }
        for (int i = 0; i < suffix.length; i++) {
            if (b[b.length - suffix.length + i] != suffix[i]) {
                return false;
            }
        }
        return true;
    }

    private static String digest(byte[] name) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(name);
            return HexFormat.of().formatHex(d, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
