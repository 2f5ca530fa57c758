package dev.cpx.core.walk;

import dev.cpx.core.decide.Entry;
import dev.cpx.core.copy.InsertionOrder;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyMode;
import dev.cpx.api.Dereference;
import dev.cpx.api.OverwritePolicy;
import dev.cpx.core.copy.Directories;
import dev.cpx.core.copy.InsertionOrder;
import dev.cpx.core.copy.SequencedInsertions;
import dev.cpx.core.decide.Placement;
import dev.cpx.core.copy.FileCopier;
import dev.cpx.core.copy.NonFiles;
import dev.cpx.core.run.RunContext;
import dev.cpx.core.run.Task;
import dev.cpx.spi.Descriptors;
import dev.cpx.spi.support.FileDescriptors;
import java.nio.file.Path;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends each entry found to the work that copies it: data copies to tasks of their own (or inline
 * when enough work is queued), and the naming of every new entry through its directory's
 * {@link InsertionOrder}. Decides per entry between a copy, a link ({@code -l}, {@code -s}, a
 * hard link kept with {@code --preserve=links}) and a recreated special file.
 */
final class Dispatch {

    /** Below this many queued tasks per worker, new files get tasks of their own so idle workers can take them. */
    private static final int QUEUE_TARGET = 16;

    /**
     * A command-line operand's file smaller than this is copied in its operand's own task: the
     * operands' decisions are made one after the other anyway (see {@link FileCopier#copy(Entry,
     * dev.cpx.core.copy.Naming, java.util.function.Consumer, Runnable)}), and handing a small file to
     * another worker costs more than its copy; a larger one's data is copied while the next operands start.
     */
    static final long OPERAND_INLINE_BELOW = 1L << 20;

    /** Files this large are named when done rather than in their directory's order. */
    static final long NAMED_OUT_OF_TURN = 16L << 20;

    /** The CPUs the run's workers share: where there are no more workers than these, each has one ({@link #orderFor(int, int)}). */
    private static final int CPUS = Runtime.getRuntime().availableProcessors();

    private final RunContext context;
    private final FileCopier files;
    private final NonFiles nonFiles;
    private final Directories directories;
    private final Excludes excludes;
    /** Null unless hard links are kept ({@code --preserve=links}). */
    private final HardLinks hardLinks;
    /** Null unless new directories are copied relative to open descriptors (see {@link #descriptors()}). */
    private final Descriptors descriptors;
    /** Files waiting for their turn to be named while holding a descriptor (see {@link SequencedInsertions}). */
    private final AtomicInteger waitingDescriptors = new AtomicInteger();
    /** Whether questions are asked ({@code -i}). */
    private final boolean asks;
    /**
     * Whether one worker copies ({@code -j 1}): then everything is copied in GNU cp's order
     * ({@link #allInOrder}), depth first, so that {@code -v}'s lines and the messages of failures in
     * several directories come in GNU's order too (with more workers, each directory's tree is copied
     * as a task of its own, in parallel with the entries after it).
     */
    private final boolean oneWorker;
    /**
     * Whether the entries of directories that existed are copied one after the other, in GNU cp's
     * order (each subdirectory that existed before the entries after it, each file in the walking
     * task): where questions are asked ({@link #asks}), so that answers given in advance go to the
     * files they were meant for. A directory this run makes holds nothing to ask about: its tree is
     * copied by all the workers, as without {@code -i} — unless hard links are kept or one worker
     * copies ({@link #allInOrder}).
     */
    private final boolean inOrder;
    /**
     * {@link #inOrder} for directories this run makes too: with one worker ({@link #oneWorker}), and
     * with hard links kept ({@code -ai}, {@code -i --preserve=links}) where an operand's copy exists,
     * since a later name of a file over an old copy is asked about only once the first name's copy
     * exists ({@link HardLinks}); a first name in a new directory copied meanwhile would put its
     * question after later ones. Set by {@link #newDirectoriesInOrder} before the operands start.
     */
    private boolean allInOrder;
    /** Whether copies get their source's owner or mode ({@code -a}, {@code -p}): then directories made learn {@link dev.cpx.core.fs.NewEntries}. */
    private final boolean preservesOwnerOrMode;

    Dispatch(RunContext context, FileCopier files, NonFiles nonFiles, Directories directories, Excludes excludes) {
        this.context = context;
        this.files = files;
        this.nonFiles = nonFiles;
        this.directories = directories;
        this.excludes = excludes;
        boolean keepLinks = context.options().preserves(Attribute.LINKS) || context.options().update();
        this.hardLinks = keepLinks && context.options().mode() != CopyMode.HARD_LINK ? new HardLinks() : null;
        this.descriptors = descriptorsFor(context, excludes);
        this.asks = context.options().overwrite() == OverwritePolicy.ASK;
        this.oneWorker = context.options().maxJobs() == 1;
        this.inOrder = asks || oneWorker;
        this.allInOrder = oneWorker;
        this.preservesOwnerOrMode = context.options().preserves(Attribute.OWNERSHIP) || context.options().preserves(Attribute.MODE);
    }

    /** Whether copies get their source's owner or mode (see {@link DirectoryTask}'s new entries). */
    boolean preservesOwnerOrMode() {
        return preservesOwnerOrMode;
    }

    /** Whether questions ({@code -i}) may be about later names of hard-linked files ({@link #allInOrder}). */
    boolean linksAsked() {
        return asks && hardLinks != null;
    }

    /**
     * Copies directories this run makes in order too ({@link #allInOrder}) where {@code copiesExist}
     * (some operand's copy is there already); called before the operands start.
     */
    void newDirectoriesInOrder(boolean copiesExist) {
        this.allInOrder = oneWorker || (copiesExist && linksAsked());
    }

    /** Whether an entry of a directory placed {@code placement} is copied before the next is looked at (see {@link #inOrder}). */
    boolean inOrder(Placement placement) {
        return inOrder && (allInOrder || !placement.absent());
    }

    /**
     * Directories deeper than this below an operand are copied on a task of their own even {@link #inOrder}:
     * each level copied in its parent's task takes some of the worker's stack (and two descriptors
     * that cannot be parked, so under a low descriptor limit the depth is less: {@code DescriptorBudget.roomFor}).
     */
    static final int IN_ORDER_DEPTH = 200;

    /**
     * The descriptor operations directories this run makes are copied with (see {@link DirectoryTask}):
     * where the native extras have them, changes are made (not {@code --dry-run}), data is copied
     * ({@code -l}, {@code -s}, {@code --attributes-only} go by paths), a walk looks at entries without
     * following links (not {@code -r -L}; without {@code -r} nothing is walked), nothing is excluded (that needs more than a name and a type per
     * entry), and NIO's descriptors are accessible (so an engine that
     * uses channels gets one). {@code -Dcpx.descriptors=false} turns them off (to measure).
     */
    private static Descriptors descriptorsFor(RunContext context, Excludes excludes) {
        if (!Boolean.parseBoolean(System.getProperty("cpx.descriptors", "true")) || !context.effects().changes()
                || !excludes.isEmpty() || context.options().mode() != CopyMode.DATA
                || (context.options().effectiveDereference() == Dereference.ALWAYS && context.options().recursive())
                || !FileDescriptors.availability().available()) {
            // (The last: without access to NIO's descriptors no channel can be made of a descriptor for an engine.)
            return null;
        }
        return context.extras().descriptors().orElse(null);
    }

    Excludes excludes() {
        return excludes;
    }

    /**
     * Whether a file with {@code nlink} names is copied the general way, because its inode is
     * remembered for {@code --preserve=links} (see {@link #tracked}): in a directory's walk, where
     * links are not followed, that is a file with more than one name.
     */
    boolean linksTracked(long nlink) {
        return hardLinks != null && nlink > 1;
    }

    /** {@link #linksTracked} as a predicate, made once: a method reference per file is a call into the VM under C1. */
    final java.util.function.LongPredicate linksTracked = this::linksTracked;

    /**
     * Whether regular-file operands may be copied relative to open directories ({@link OperandFiles}):
     * where descriptors are used, and no operand's inode is remembered whatever its number of names
     * ({@code --preserve=links} or {@code -u} where command-line links are followed, see {@link #tracked}).
     */
    boolean operandFilesAt() {
        return descriptors != null && (hardLinks == null || context.options().effectiveDereference() == Dereference.NEVER);
    }

    /** The descriptor operations a directory this run made is copied with; null: by paths. */
    Descriptors descriptors() {
        return descriptors;
    }

    FileCopier files() {
        return files;
    }

    Directories directories() {
        return directories;
    }

    /** The order in which a directory of {@code size} entries names them. */
    InsertionOrder orderFor(int size) {
        return new SequencedInsertions(size, waitingDescriptors);
    }

    /**
     * {@link #orderFor(int)} of a directory {@code workers} share: a worker waits briefly for its
     * turn ({@link InsertionOrder#awaitTurn}) where each has a CPU.
     */
    InsertionOrder orderFor(int size, int workers) {
        return new SequencedInsertions(size, waitingDescriptors, workers <= CPUS);
    }

    /**
     * Copies the entry {@code e}.
     *
     * @param parent the task the work belongs to
     * @param order the order new names are given in, with this entry's {@code index}
     * @param operand the command-line operand this entry is under; null for the operand itself
     */
    void entry(Task parent, InsertionOrder order, int index, Entry e, Operand operand) {
        entry(parent, order, index, e, operand, FileCopier.NOTHING);
    }

    /**
     * {@link #entry(Task, InsertionOrder, int, Entry, Operand)}, telling {@code decided} (a
     * command-line operand's turn, see {@link FileCopier#copy(Entry, dev.cpx.core.copy.Naming,
     * java.util.function.Consumer, Runnable)}) once its destination is decided: by the file's copy
     * where it has a task of its own, else when done here.
     */
    void entry(Task parent, InsertionOrder order, int index, Entry e, Operand operand, Runnable decided) {
        boolean handed = false;
        try {
            handed = entryDeciding(parent, order, index, e, operand, decided);
        } finally {
            if (!handed) {
                decided.run();
            }
        }
    }

    /** True when {@code decided} went to a file's task, which tells it; else it is told once this returns. */
    private boolean entryDeciding(Task parent, InsertionOrder order, int index, Entry e, Operand operand, Runnable decided) {
        if (e.stat().isDirectory()) {
            order.insert(index, () -> directory(parent, e, operand, false), false);
            return false;
        }
        CopyMode mode = context.options().mode();
        if (mode == CopyMode.HARD_LINK) {
            order.insert(index, () -> nonFiles.hardLink(e, e.source(), true), false);
            return false;
        }
        boolean symbolic = mode == CopyMode.SYMBOLIC_LINK;
        if (hardLinks != null && tracked(e)) {
            // Held open until the first copy of this inode exists (or failed): see HardLinks. With -s the
            // copy is a symbolic link, and a later name of the inode a hard link to it, as GNU cp makes it.
            parent.addToPendingCount(1);
            HardLinks.Group first = hardLinks.claim(e.stat(), copy -> {
                try {
                    if (copy != null) {
                        order.insert(index, () -> nonFiles.hardLink(e, copy, false), false);
                    } else if (symbolic) {
                        order.insert(index, () -> nonFiles.symbolicLink(e), false);
                    } else {
                        copy(parent, order, index, e, null, FileCopier.NOTHING);
                    }
                } finally {
                    parent.tryComplete();
                }
            });
            if (first == null) {
                return false;
            }
            parent.addToPendingCount(-1);
            // The first copy is named at once, out of turn: names waiting for it then never wait on an order.
            order.skip(index);
            if (symbolic) {
                finish(first, nonFiles.symbolicLink(e), e);
                return false;
            }
            return copy(parent, InsertionOrder.IMMEDIATE, 0, e, first, decided);
        }
        if (symbolic) {
            order.insert(index, () -> nonFiles.symbolicLink(e), false);
            return false;
        }
        return copy(parent, order, index, e, null, decided);
    }

    /**
     * Whether the entry's inode is remembered so later names of it become hard links, as GNU cp
     * remembers it with {@code --preserve=links}: a file with several names, and with {@code -L}
     * every file ({@code -H}: every command-line file), since links may lead to it again.
     */
    private boolean tracked(Entry e) {
        Dereference d = context.options().effectiveDereference();
        boolean candidate = e.stat().nlink() > 1 || d == Dereference.ALWAYS || (d == Dereference.COMMAND_LINE && e.operand());
        if (!candidate || context.options().preserves(Attribute.LINKS)) {
            return candidate;
        }
        // -u alone: GNU remembers the files it skips as up to date, and links a later name of the same
        // inode, itself up to date, to the first one's copy.
        return upToDate(e);
    }

    /** Whether {@code -u} would keep {@code e}'s destination: a non-directory at least as new as the source. */
    private boolean upToDate(Entry e) {
        if (!e.stat().isRegular() || e.placement().absent()) {
            return false;
        }
        dev.cpx.core.fs.Stat d = context.anchors().statOrNull(e.target());
        return d != null && !d.isDirectory() && d.mtime().compareTo(e.stat().mtime()) >= 0;
    }

    /**
     * A command-line operand. {@code asCopy}: the destination is being made as the copy of this
     * directory operand (GNU's rule for a destination that did not exist), which is marked on it for
     * {@code --resume}. {@code decided} is told once its destination is decided (see
     * {@link #entry(Task, InsertionOrder, int, Entry, Operand, Runnable)}).
     */
    void operand(Task root, Entry e, boolean asCopy, Runnable decided) {
        if (e.stat().isDirectory()) {
            try {
                directory(root, e, null, asCopy);
            } finally {
                decided.run();
            }
        } else {
            entry(root, InsertionOrder.IMMEDIATE, 0, e, null, decided);
        }
    }

    private void directory(Task parent, Entry e, Operand operand, boolean mark) {
        if (parent instanceof DirectoryTask dir && context.options().effectiveDereference() == Dereference.ALWAYS
                && dir.isWithin(e.stat())) {
            // With -L, a link to a directory being copied would copy forever; GNU cp refuses it before making anything.
            directories.refuseCycle(e);
            return;
        }
        Directories.State state = directories.create(e, mark);
        if (state == Directories.State.FAILED) {
            return;
        }
        if (context.options().oneFileSystem() && operand != null && e.stat().dev() != operand.sourceDev()) {
            // -x: the mount point is copied, what is mounted on it is not.
            directories.finish(e, state);
        } else {
            DirectoryTask task = new DirectoryTask(parent, context, this, e, state, operand != null ? operand : operandCopied(e));
            if (inOrder && (state == Directories.State.EXISTED || allInOrder) && task.depth() < IN_ORDER_DEPTH
                    && dev.cpx.core.fs.DescriptorBudget.roomFor(task.depth() + 2)) {
                // Its entries before the rest of the parent's, as GNU cp copies them.
                parent.runInline(task);
            } else {
                parent.spawn(task);
            }
        }
    }

    /** The directory operand {@code e}, just made (under its staging name, where it has one). */
    private Operand operandCopied(Entry e) {
        Path staged = directories.stagedAs(e.target());
        return Operand.of(e.source(), e.stat(), e.target(), staged != null ? staged : e.target());
    }

    /** True when the entry got a task of its own, which tells {@code decided}. */
    private boolean copy(Task parent, InsertionOrder order, int index, Entry e, HardLinks.Group links, Runnable decided) {
        boolean readAsData = e.stat().isRegular()
                || (e.stat().isSpecial() && !(context.options().recursive() && !context.options().copyContents()));
        if (readAsData) {
            context.counters().filesFound.increment();
            context.counters().bytesFound.add(e.stat().size());
            if (e.stat().size() >= NAMED_OUT_OF_TURN && order != InsertionOrder.IMMEDIATE) {
                // A large file would hold up the naming (and so the walk) of everything after it in its
                // directory until its last byte is in: it is named when done instead, out of turn.
                order.skip(index);
                order = InsertionOrder.IMMEDIATE;
                index = 0;
            }
            start(parent, new FileTask(parent, context.outcomes(), files, order, index, e, links, decided), ownTask(e, decided));
            return true;
        } else if (e.stat().isSymlink()) {
            order.insert(index, () -> finish(links, nonFiles.copySymlink(e), e), false);
        } else {
            order.insert(index, () -> finish(links, nonFiles.copySpecial(e), e), false);
        }
        return false;
    }

    /**
     * Whether the copy of the file {@code e} may go to a task of its own: not where it is asked about
     * in order ({@link #inOrder}); a command-line operand's (its decision told by {@code decided}, so
     * operands ask in order on tasks of their own too) only from {@link #OPERAND_INLINE_BELOW} on, and
     * not where questions may be about later names of it ({@link #allInOrder}: the next operand may be
     * one, asked about once this copy exists).
     */
    boolean ownTask(Entry e, Runnable decided) {
        return decided == FileCopier.NOTHING ? !inOrder(e.placement()) : e.stat().size() >= OPERAND_INLINE_BELOW && !allInOrder;
    }

    /** Starts {@code task} under {@code parent}: on a task of its own where {@code ownTask} and few are queued, else here. */
    static void start(Task parent, Task task, boolean ownTask) {
        if (ownTask && ForkJoinTask.getSurplusQueuedTaskCount() < QUEUE_TARGET) {
            parent.spawn(task);
        } else {
            // Enough queued work already: copying here keeps memory bounded in huge directories.
            parent.runInline(task);
        }
    }

    private static void finish(HardLinks.Group links, boolean made, Entry e) {
        if (links != null) {
            links.finish(made ? e.target() : null);
        }
    }
}
