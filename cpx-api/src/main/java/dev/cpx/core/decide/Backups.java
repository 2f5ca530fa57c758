package dev.cpx.core.decide;

import dev.cpx.core.fs.Stat;

import dev.cpx.api.BackupMode;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Backup names as GNU's {@code --backup} makes them: {@code NAME~} (or the suffix of {@code -S} /
 * {@code SIMPLE_BACKUP_SUFFIX}), {@code NAME.~N~} numbered, or numbered only where numbered backups
 * exist already.
 */
public final class Backups {

    private final BackupMode mode;
    private final byte[] suffix;

    public Backups(BackupMode mode, String suffix) {
        this.mode = mode;
        this.suffix = PathBytes.encode(suffix);
    }

    public boolean enabled() {
        return mode != BackupMode.NONE;
    }

    /** The name the existing {@code target} is to be renamed to (numbered ones read its directory). */
    public Path nameFor(Path target) throws IOException {
        byte[] name = PathBytes.of(target.getFileName());
        int highest = mode == BackupMode.NUMBERED || mode == BackupMode.EXISTING ? highestNumber(target, name) : 0;
        return target.resolveSibling(PathBytes.path(backupName(name, mode, suffix, highest)));
    }

    /**
     * The backup name of {@code name}: {@code NAME~} (the suffix) for simple backups, {@code NAME.~N~}
     * for numbered ones, numbered only where {@code highest}, the highest number in use, is above 0
     * for {@code existing}.
     */
    static byte[] backupName(byte[] name, BackupMode mode, byte[] suffix, int highest) {
        return switch (mode) {
            case NONE -> throw new IllegalArgumentException("no backups");
            case SIMPLE -> concat(name, suffix);
            case NUMBERED -> numbered(name, highest + 1);
            case EXISTING -> highest > 0 ? numbered(name, highest + 1) : concat(name, suffix);
        };
    }

    /**
     * Whether {@code src} (stat {@code st}) is the simple backup {@code dst} has now ({@code NAME} plus the
     * suffix, the same file): backing {@code dst} up would then destroy the source (GNU's
     * {@code source_is_dst_backup}).
     */
    public boolean isSimpleBackupOf(Path src, Stat st, Path dst) {
        Path srcName = PathBytes.withoutTrailingSlashes(src).getFileName();
        Path dstName = dst.getFileName();
        if (srcName == null || dstName == null
                || !Arrays.equals(PathBytes.of(srcName), concat(PathBytes.of(dstName), suffix))) {
            return false;
        }
        try {
            return Stat.stat(dst.resolveSibling(PathBytes.path(concat(PathBytes.of(dstName), suffix)))).sameFile(st);
        } catch (IOException e) {
            return false;
        }
    }

    /** The highest N of the existing {@code NAME.~N~} next to {@code target}, 0 if none. */
    private static int highestNumber(Path target, byte[] name) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        int highest = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                highest = Math.max(highest, backupNumber(name, PathBytes.of(entry.getFileName())));
            }
        }
        return highest;
    }

    /** N when {@code candidate} is {@code NAME.~N~}, the numbered backup of {@code name}; else 0. */
    static int backupNumber(byte[] name, byte[] candidate) {
        byte[] prefix = concat(name, ".~".getBytes(StandardCharsets.US_ASCII));
        if (candidate.length > prefix.length + 1 && candidate[candidate.length - 1] == '~'
                && Arrays.equals(candidate, 0, prefix.length, prefix, 0, prefix.length)) {
            return parseNumber(candidate, prefix.length, candidate.length - 1);
        }
        return 0;
    }

    private static int parseNumber(byte[] b, int from, int to) {
        if (to - from > 9 || from >= to || b[from] == '0') {
            return 0;
        }
        int n = 0;
        for (int i = from; i < to; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return 0;
            }
            n = n * 10 + (b[i] - '0');
        }
        return n;
    }

    private static byte[] numbered(byte[] name, int n) {
        return concat(name, (".~" + n + "~").getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
