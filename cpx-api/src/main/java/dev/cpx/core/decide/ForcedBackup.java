package dev.cpx.core.decide;

import dev.cpx.api.BackupMode;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.TargetMode;
import dev.cpx.core.fs.Stat;
import dev.cpx.spi.support.PathBytes;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * GNU cp's special case for {@code --force} with {@code --backup} when source and destination are the
 * same name of an existing regular file: {@code cp -bf foo foo} becomes {@code cp -f foo foo.~1~} (the
 * backup is made as a copy, and {@code -bfl} as a hard link), with no further backup.
 */
public final class ForcedBackup {

    private ForcedBackup() {
    }

    /**
     * Whether the command line {@code sources} → {@code destination} is that case.
     *
     * @param destination {@code stat} of the destination operand (links followed), or null when there is none
     */
    public static boolean applies(List<Path> sources, Path destinationOperand, Stat destination, CopyOptions o) {
        return sources.size() == 1 && o.target() != TargetMode.DIRECTORY && o.force() && o.backup() != BackupMode.NONE
                && destination != null && destination.isRegular()
                && Arrays.equals(PathBytes.of(sources.get(0)), PathBytes.of(destinationOperand));
    }
}
