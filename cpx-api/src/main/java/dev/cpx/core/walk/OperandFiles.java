package dev.cpx.core.walk;

import dev.cpx.core.copy.FileCopier;
import dev.cpx.core.copy.InsertionOrder;
import dev.cpx.core.copy.Naming;
import dev.cpx.core.copy.Place;
import dev.cpx.core.decide.Entry;
import dev.cpx.core.decide.Placement;
import dev.cpx.core.fs.DirectoryPair;
import dev.cpx.core.run.Outcomes;
import dev.cpx.core.run.Task;
import dev.cpx.spi.support.PathBytes;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Regular-file operands copied into a directory relative to open directories, as a directory's
 * entries are ({@link FileCopier#copyAt}): the directory holding consecutive operands and the target
 * directory are opened once, and each file is opened, looked at and made by its name in them. So
 * {@code cp *.jpg dir/} costs per file what a tree's copy does, not a path lookup per system call.
 * A file this way cannot go (a symbolic link followed on the command line, a large file, one whose
 * links are tracked, a directory that cannot be opened) is copied by its paths as before. Called
 * in operand order only ({@link Operands} starts operands one after the other).
 */
final class OperandFiles {

    private static final Path HERE = Path.of(".");
    private static final Path NO_PREFIX = Path.of("");

    private final Dispatch dispatch;
    private final Outcomes outcomes;
    /** The directories {@link #pair} holds (or failed to open: {@link #pair} null), as the operands name them. */
    private Path sourceDirectory;
    private Path targetDirectory;
    /** Open for the operands in {@link #sourceDirectory}; this holds one reference, each file's task one. */
    private DirectoryPair pair;
    /** Whether a small file's write is handed on once decided ({@link HandedOn}); else it is written before the next operand starts. */
    private final boolean handsOn;
    private final HandedOn writes;

    OperandFiles(Dispatch dispatch, Outcomes outcomes, boolean handsOn) {
        this.dispatch = dispatch;
        this.outcomes = outcomes;
        this.handsOn = handsOn;
        this.writes = new HandedOn(outcomes);
    }

    /**
     * Starts the copy of the regular-file operand {@code e} into {@code into} (as given, without
     * trailing slashes; its target is {@code into/name}) under {@code parent}; false when it is to be
     * copied by its paths instead.
     */
    boolean start(Task parent, Entry e, Path into, Runnable decided) {
        Path src = e.source();
        Path name = src.getFileName();
        if (name == null || !into.resolve(name).equals(e.target())) {
            return false;
        }
        Path directory = src.getParent();
        Path prefix = directory == null ? NO_PREFIX : directory;
        if (!prefix.resolve(name).equals(src)) {
            // Named otherwise than "directory/name" (say "a/."): messages name it as given, so by paths.
            return false;
        }
        if (!prefix.equals(sourceDirectory) || !into.equals(targetDirectory)) {
            close();
            sourceDirectory = prefix;
            targetDirectory = into;
            pair = DirectoryPair.open(dispatch.descriptors(), directory == null ? HERE : directory, into);
        }
        if (pair == null) {
            return false;
        }
        pair.retain();
        boolean ownTask = dispatch.ownTask(e, decided);
        Dispatch.start(parent, new Copy(parent, e, pair, PathBytes.of(name), prefix, into, decided,
                handsOn && !ownTask), ownTask);
        return true;
    }

    /** What runs when the operands stop starting on this thread: the writes handed on and not yet taken, here. */
    void idle() {
        writes.drain();
    }

    /** Lets go of the directories held for the operands (their files' tasks keep them until done). */
    void close() {
        if (pair != null) {
            pair.release();
            pair = null;
        }
        sourceDirectory = null;
        targetDirectory = null;
    }

    /** One operand's copy; what {@link FileCopier#copyAt} leaves goes on by its paths. */
    private final class Copy extends Task implements Consumer<Runnable> {
        private final Entry entry;
        private final DirectoryPair dirs;
        private final byte[] name;
        private final Path from;
        private final Path into;
        private final Runnable decided;
        private final Task operand;
        /** Whether the write is handed on once decided ({@link #accept}). */
        private final boolean handOn;

        Copy(Task parent, Entry entry, DirectoryPair dirs, byte[] name, Path from, Path into, Runnable decided, boolean handOn) {
            super(parent, outcomes);
            this.operand = parent;
            this.decided = decided;
            this.handOn = handOn;
            this.entry = entry;
            this.dirs = dirs;
            this.name = name;
            this.from = from;
            this.into = into;
        }

        @Override
        protected void execute() {
            FileCopier.Left left = null;
            try {
                try {
                    left = dispatch.files().copyAt(new Place(dirs, name), from, into, Naming.IMMEDIATE,
                            Dispatch.NAMED_OUT_OF_TURN, dispatch.linksTracked, Placement.OPERAND, decided, handOn ? this : null);
                } finally {
                    dirs.release();
                }
                if (left != null) {
                    // Left to be copied by its paths, which decides and tells.
                    dispatch.entry(this, InsertionOrder.IMMEDIATE, 0, entry, null, decided);
                }
            } finally {
                if (left == null) {
                    decided.run();
                }
            }
        }

        /** The decided file's write, handed on: its operand completes once it has run. */
        @Override
        public void accept(Runnable write) {
            writes.handOn(operand, write, entry.source());
        }

        @Override
        protected Path subject() {
            return entry.source();
        }
    }
}
