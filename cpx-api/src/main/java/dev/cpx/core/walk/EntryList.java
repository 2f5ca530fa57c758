package dev.cpx.core.walk;

import dev.cpx.api.Dereference;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.core.copy.FileCopier;
import dev.cpx.core.copy.InsertionOrder;
import dev.cpx.core.copy.Naming;
import dev.cpx.core.copy.Place;
import dev.cpx.core.decide.Entry;
import dev.cpx.core.decide.Placement;
import dev.cpx.core.fs.DirectoryPair;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.run.RunContext;
import dev.cpx.core.run.Task;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The root of a run over a list of entries given with their targets, rather than walked from
 * operands: what a plan's worker copies of a chunk in one run (one pool, one set of parts, no
 * per-operand checks). Each source is looked at once (following links only as the options say)
 * and handed to the same dispatch a directory's walk uses, named as soon as it is complete. Where
 * the run copies relative to open directories ({@link Dispatch#descriptors()}), the regular files
 * go in {@link Batch}es, each of files in one directory: its source and copy are opened once, and
 * each file is opened, looked at and made by its name in them, as in a directory the walk made.
 */
public final class EntryList extends Task {

    /**
     * One entry: its source, its copy's name (in a directory that exists), whether it is a
     * command-line operand itself (looked at through a symbolic link as an operand is), whether
     * its copy is in a tree made under a staging name ({@link Placement#STAGED_PARENT}), and whether
     * it was a regular file when it was planned (so is copied in a {@link Batch} where it can be).
     */
    public record Item(Path source, Path target, boolean operand, boolean staged, boolean file) {
    }

    /** Files copied in one batch at most, so that the workers share a large directory's. */
    static final int BATCH = DirectoryTask.CHUNK;

    /** The directories of a batch: the source's, the copy's, and whether that is in a staged tree. */
    private record Directories(Path source, Path target, boolean staged) {
    }

    private final RunContext context;
    private final Dispatch dispatch;
    private final List<Item> items;
    private final Runnable end;

    EntryList(RunContext context, Dispatch dispatch, List<Item> items, Runnable end) {
        super(null, context.outcomes());
        this.context = context;
        this.dispatch = dispatch;
        this.items = List.copyOf(items);
        this.end = end;
    }

    @Override
    protected void execute() {
        Map<Directories, List<Item>> batches = dispatch.descriptors() == null ? null : new LinkedHashMap<>();
        for (Item item : items) {
            if (context.cancelled()) {
                return;
            }
            if (batches != null && item.file() && !item.operand()
                    && item.source().getFileName().equals(item.target().getFileName())) {
                Directories d = new Directories(item.source().getParent(), item.target().getParent(), item.staged());
                List<Item> batch = batches.computeIfAbsent(d, k -> new ArrayList<>());
                batch.add(item);
                if (batch.size() == BATCH) {
                    spawn(new Batch(d, List.copyOf(batch)));
                    batch.clear();
                }
            } else {
                byPaths(this, item);
            }
        }
        if (batches != null) {
            batches.forEach((d, batch) -> {
                if (!batch.isEmpty()) {
                    spawn(new Batch(d, batch));
                }
            });
        }
    }

    /** Copies {@code item} by its paths, as part of {@code parent}. */
    private void byPaths(Task parent, Item item) {
        Dereference deref = context.options().effectiveDereference();
        boolean follow = deref == Dereference.ALWAYS
                || (item.operand() && (deref != Dereference.NEVER || PathBytes.hasTrailingSlash(item.source())));
        Stat st;
        try {
            st = Stat.of(item.source(), follow);
        } catch (IOException e) {
            context.outcomes().failed(EntryKind.UNKNOWN, item.source(), item.target(),
                    Diagnostic.of("cannot stat {0}", item.source(), Diagnostic.reasonOf(e)));
            return;
        }
        dispatch.entry(parent, InsertionOrder.IMMEDIATE, 0, new Entry(item.source(), item.target(), st, placement(item)), null);
    }

    private static Placement placement(Item item) {
        return item.operand() ? Placement.OPERAND : item.staged() ? Placement.STAGED_PARENT : Placement.EXISTING_PARENT;
    }

    @Override
    protected void completed() {
        end.run();
    }

    @Override
    protected Path subject() {
        return items.isEmpty() ? Path.of(".") : items.get(0).source();
    }

    /**
     * Files of one directory, copied relative to it and to its copy, both opened once (see
     * {@link FileCopier#copyAt}); a file that is not one any more, or is large, or whose links are
     * tracked, is handed on as by paths. Where either directory cannot be opened, all go by paths.
     */
    private final class Batch extends Task {
        private final Directories directories;
        private final List<Item> files;

        Batch(Directories directories, List<Item> files) {
            super(EntryList.this, context.outcomes());
            this.directories = directories;
            this.files = files;
        }

        @Override
        protected void execute() {
            DirectoryPair dirs = DirectoryPair.open(dispatch.descriptors(), directories.source(), directories.target(),
                    directories.staged());
            if (dirs == null) {
                files.forEach(item -> byPaths(this, item));
                return;
            }
            try {
                for (Item item : files) {
                    if (context.cancelled()) {
                        return;
                    }
                    copy(dirs, item);
                }
            } finally {
                dirs.release();
            }
        }

        private void copy(DirectoryPair dirs, Item item) {
            byte[] name = PathBytes.of(item.source().getFileName());
            Placement placement = placement(item);
            FileCopier.Left left = dispatch.files().copyAt(new Place(dirs, name), directories.source(),
                    directories.target(), new Naming(InsertionOrder.IMMEDIATE, 0), Dispatch.NAMED_OUT_OF_TURN,
                    dispatch.linksTracked, placement);
            if (left == null) {
                return;
            }
            Stat st = left.stat();
            if (st == null) {
                try {
                    st = Stat.of(dirs.descriptors().status(dirs.source(), name));
                } catch (IOException e) {
                    context.outcomes().failed(EntryKind.UNKNOWN, item.source(), item.target(),
                            Diagnostic.of("cannot stat {0}", item.source(), Diagnostic.reasonOf(e)));
                    return;
                }
            }
            dispatch.entry(this, InsertionOrder.IMMEDIATE, 0, new Entry(item.source(), item.target(), st, placement), null);
        }

        @Override
        protected Path subject() {
            return directories.source();
        }
    }
}
