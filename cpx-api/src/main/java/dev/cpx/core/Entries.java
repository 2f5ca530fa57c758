package dev.cpx.core;

import java.nio.file.Path;
import java.util.concurrent.ForkJoinTask;

/**
 * Sends each entry found to the work that copies it: data copies to tasks of their own (or inline
 * when enough work is queued), and the naming of every new entry through its directory's
 * {@link InsertionOrder}.
 */
final class Entries {

    /** Below this many queued tasks per worker, new files get tasks of their own so idle workers can take them. */
    private static final int QUEUE_TARGET = 16;

    private final CopyRun run;

    Entries(CopyRun run) {
        this.run = run;
    }

    /**
     * Copies {@code src} (whose attributes are {@code st}) to {@code dst}.
     *
     * @param parent the task the work belongs to
     * @param order the order new names are given in, with this entry's {@code index}
     * @param dstAbsent true when {@code dst} cannot exist yet (its directory was just created by this run)
     * @param operand the command-line operand this entry is under; null for the operand itself
     */
    void dispatch(Task parent, InsertionOrder order, int index, Path src, Path dst, Stat st, boolean dstAbsent,
            Operand operand) {
        if (st.isDirectory()) {
            order.insert(index, () -> {
                Directories.State state = run.directories.create(src, dst, st, dstAbsent);
                if (state != Directories.State.FAILED) {
                    parent.spawn(new DirTask(parent, run, src, dst, st, state,
                            operand != null ? operand : Operand.of(src, st, dst)));
                }
            }, false);
        } else if (st.isRegular() || (st.isSpecial() && !(run.options.recursive() && !run.options.copyContents()))) {
            run.counters.filesFound.increment();
            run.counters.bytesFound.add(st.size());
            FileTask task = new FileTask(parent, run, order, index, src, dst, st, dstAbsent);
            if (ForkJoinTask.getSurplusQueuedTaskCount() < QUEUE_TARGET) {
                parent.spawn(task);
            } else {
                // Enough queued work already: copying here keeps memory bounded in huge directories.
                parent.runInline(task);
            }
        } else if (st.isSymlink()) {
            order.insert(index, () -> run.files.copySymlink(src, dst, st, dstAbsent), false);
        } else {
            order.insert(index, () -> run.files.copySpecial(src, dst, st, dstAbsent), false);
        }
    }
}
