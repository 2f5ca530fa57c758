package dev.cpx.core.run;

import dev.cpx.spi.PosixExtras;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;

/**
 * How many workers a run starts with, and how many it may grow to. Where no side of the copy can wait on a disk (every source
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
     * A run's pool: {@code workers} at once, up to {@code most} while workers wait on the disk
     * ({@link DiskWaits}).
     */
    public record Pool(int workers, int most) {
    }

    /**
     * The pool of a run: {@code jobs} up to {@code max}; or, when the pool may grow ({@code max > jobs}:
     * no {@code -j}) and the copy is {@code inMemory} (asked only then), one per core (at least one),
     * and no more when that is fewer than {@code jobs}.
     */
    public static Pool of(int jobs, int max, int cores, BooleanSupplier inMemory) {
        if (max > jobs && inMemory.getAsBoolean()) {
            int perCore = Math.max(1, Math.min(jobs, cores));
            return new Pool(perCore, perCore < jobs ? perCore : max);
        }
        return new Pool(jobs, max);
    }

    /**
     * Whether the directories holding every source and the destination are on memory file systems;
     * false when that cannot be told. An operand itself is never looked at: its last component may be
     * a symbolic link that the copy does not follow, and following one sets its access time (of a
     * source, which cpx never changes). The nearest directory above that exists answers for it, so an
     * operand that is itself a mount point counts as its parent's file system: a guess, which costs only
     * speed when wrong.
     */
    public static boolean inMemory(PosixExtras extras, List<Path> sources, Path destination) {
        if (sources.isEmpty() || sources.size() > MOST_OPERANDS) {
            return false;
        }
        for (Path source : sources) {
            if (!isMemory(typeAbove(extras, source))) {
                return false;
            }
        }
        return isMemory(typeAbove(extras, destination));
    }

    /** The file system type of the nearest existing directory above {@code path}. */
    private static OptionalLong typeAbove(PosixExtras extras, Path path) {
        for (Path p = path.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
            OptionalLong type = extras.fileSystemType(p);
            if (type.isPresent()) {
                return type;
            }
        }
        return OptionalLong.empty();
    }

    static boolean isMemory(OptionalLong type) {
        return type.isPresent() && (type.getAsLong() == TMPFS || type.getAsLong() == RAMFS);
    }
}
