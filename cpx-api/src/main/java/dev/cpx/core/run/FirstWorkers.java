package dev.cpx.core.run;

import dev.cpx.spi.PosixExtras;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;

/**
 * How many workers a run starts with. Where no side of the copy can wait on a disk (every source
 * and the destination on a memory file system: tmpfs, ramfs) the copy is bound by the CPUs: such a
 * run, when no {@code -j} was given, has one worker per core and no more (no pool kept ready to grow
 * for disk waits that cannot come). Measured: docs/performance.md ("Choosing -j").
 */
public final class FirstWorkers {

    /** {@code statfs}'s {@code f_type} of tmpfs. */
    static final long TMPFS = 0x01021994L;
    /** ... and of ramfs. */
    static final long RAMFS = 0x858458f6L;
    /** More operands than this are not looked at (a run with so many starts as any other). */
    static final int MOST_OPERANDS = 16;

    private FirstWorkers() {
    }

    /**
     * The workers of a run: {@code jobs}, or one per core (at least one, at most {@code jobs}) when
     * the pool may grow ({@code max > jobs}: no {@code -j}) and the copy is {@code inMemory} (asked
     * only then); the pool may then grow no more.
     */
    public static int of(int jobs, int max, int cores, BooleanSupplier inMemory) {
        return max > jobs && inMemory.getAsBoolean() ? Math.max(1, Math.min(jobs, cores)) : jobs;
    }

    /**
     * Whether every source and the destination (or, while it does not exist, the nearest directory
     * above it that does) are on memory file systems; false when that cannot be told.
     */
    public static boolean inMemory(PosixExtras extras, List<Path> sources, Path destination) {
        if (sources.isEmpty() || sources.size() > MOST_OPERANDS) {
            return false;
        }
        for (Path source : sources) {
            if (!isMemory(extras.fileSystemType(source))) {
                return false;
            }
        }
        for (Path p = destination.toAbsolutePath(); p != null; p = p.getParent()) {
            OptionalLong type = extras.fileSystemType(p);
            if (type.isPresent()) {
                return isMemory(type);
            }
        }
        return false;
    }

    static boolean isMemory(OptionalLong type) {
        return type.isPresent() && (type.getAsLong() == TMPFS || type.getAsLong() == RAMFS);
    }
}
