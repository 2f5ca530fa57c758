package dev.cpx.core;

import dev.cpx.api.Attribute;
import dev.cpx.api.Dereference;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.CopyMode;
import java.nio.file.Path;
import java.util.concurrent.ForkJoinTask;

/**
 * Sends each entry found to the work that copies it: data copies to tasks of their own (or inline
 * when enough work is queued), and the naming of every new entry through its directory's
 * {@link InsertionOrder}. Decides per entry between a copy, a link ({@code -l}, {@code -s}, a
 * hard link kept with {@code --preserve=links}) and a recreated special file.
 */
final class Entries {

    /** Below this many queued tasks per worker, new files get tasks of their own so idle workers can take them. */
    private static final int QUEUE_TARGET = 16;

    /** Files this large are named when done rather than in their directory's order. */
    static final long NAMED_OUT_OF_TURN = 16L << 20;

    private final CopyRun run;
    private final HardLinks hardLinks;

    Entries(CopyRun run) {
        this.run = run;
        this.hardLinks = run.options.preserves(Attribute.LINKS) ? new HardLinks() : null;
    }

    /**
     * Copies {@code src} (whose attributes are {@code st}) to {@code dst}.
     *
     * @param parent the task the work belongs to
     * @param order the order new names are given in, with this entry's {@code index}
     * @param placement where {@code dst} comes from (absent when its directory was just created by this run)
     * @param operand the command-line operand this entry is under; null for the operand itself
     */
    void dispatch(Task parent, InsertionOrder order, int index, Path src, Path dst, Stat st, Placement placement,
            Operand operand) {
        if (st.isDirectory()) {
            order.insert(index, () -> directory(parent, src, dst, st, placement, operand, false), false);
            return;
        }
        CopyMode mode = run.options.mode();
        if (mode == CopyMode.HARD_LINK) {
            order.insert(index, () -> run.nonFiles.hardLink(src, dst, st, placement, src, true), false);
            return;
        }
        if (mode == CopyMode.SYMBOLIC_LINK) {
            order.insert(index, () -> run.nonFiles.symbolicLink(src, dst, st, placement), false);
            return;
        }
        if (hardLinks != null && st.nlink() > 1) {
            // Held open until the first copy of this inode exists (or failed): see HardLinks.
            parent.addToPendingCount(1);
            HardLinks.Group first = hardLinks.claim(st, copy -> {
                try {
                    if (copy != null) {
                        order.insert(index, () -> run.nonFiles.hardLink(src, dst, st, placement, copy, false), false);
                    } else {
                        copy(parent, order, index, src, dst, st, placement, null);
                    }
                } finally {
                    parent.tryComplete();
                }
            });
            if (first == null) {
                return;
            }
            parent.addToPendingCount(-1);
            // The first copy is named at once, out of turn: names waiting for it then never wait on an order.
            order.skip(index);
            copy(parent, InsertionOrder.IMMEDIATE, 0, src, dst, st, placement, first);
            return;
        }
        copy(parent, order, index, src, dst, st, placement, null);
    }

    /**
     * A command-line operand. {@code asCopy}: the destination is being made as the copy of this
     * directory operand (GNU's rule for a destination that did not exist), which is marked on it for
     * {@code --resume}.
     */
    void dispatchOperand(Task root, Path src, Path dst, Stat st, boolean asCopy) {
        if (st.isDirectory()) {
            directory(root, src, dst, st, Placement.OPERAND, null, asCopy);
        } else {
            dispatch(root, InsertionOrder.IMMEDIATE, 0, src, dst, st, Placement.OPERAND, null);
        }
    }

    private void directory(Task parent, Path src, Path dst, Stat st, Placement placement, Operand operand, boolean mark) {
        if (parent instanceof DirTask dir && run.options.effectiveDereference() == Dereference.ALWAYS && dir.isWithin(st)) {
            // With -L, a link to a directory being copied would copy forever; GNU cp refuses it before making anything.
            run.failed(EntryKind.DIRECTORY, src, dst, Diagnostic.of("cannot copy cyclic symbolic link {0}", src));
            return;
        }
        Directories.State state = run.directories.create(src, dst, st, placement, mark);
        if (state == Directories.State.FAILED) {
            return;
        }
        if (run.options.oneFileSystem() && operand != null && st.dev() != operand.sourceDev()) {
            // -x: the mount point is copied, what is mounted on it is not.
            run.directories.finish(src, dst, st, state);
        } else {
            parent.spawn(new DirTask(parent, run, src, dst, st, state, operand != null ? operand : Operand.of(src, st, dst)));
        }
    }

    private void copy(Task parent, InsertionOrder order, int index, Path src, Path dst, Stat st, Placement placement,
            HardLinks.Group links) {
        boolean readAsData = st.isRegular() || (st.isSpecial() && !(run.options.recursive() && !run.options.copyContents()));
        if (readAsData) {
            run.counters.filesFound.increment();
            run.counters.bytesFound.add(st.size());
            if (st.size() >= NAMED_OUT_OF_TURN && order != InsertionOrder.IMMEDIATE) {
                // A large file would hold up the naming (and so the walk) of everything after it in its
                // directory until its last byte is in: it is named when done instead, out of turn.
                order.skip(index);
                order = InsertionOrder.IMMEDIATE;
                index = 0;
            }
            FileTask task = new FileTask(parent, run, order, index, src, dst, st, placement, links);
            if (ForkJoinTask.getSurplusQueuedTaskCount() < QUEUE_TARGET) {
                parent.spawn(task);
            } else {
                // Enough queued work already: copying here keeps memory bounded in huge directories.
                parent.runInline(task);
            }
        } else if (st.isSymlink()) {
            order.insert(index, () -> finish(links, run.nonFiles.copySymlink(src, dst, st, placement), dst), false);
        } else {
            order.insert(index, () -> finish(links, run.nonFiles.copySpecial(src, dst, st, placement), dst), false);
        }
    }

    private static void finish(HardLinks.Group links, boolean made, Path dst) {
        if (links != null) {
            links.finish(made ? dst : null);
        }
    }
}
