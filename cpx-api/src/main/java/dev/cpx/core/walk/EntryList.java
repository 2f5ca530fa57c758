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
 * the run copies relative to open directories ({@link Dispatch#descriptors()}), the entries of one
 * directory go in a {@link Group}: its source and copy are opened once, from the operand's source
 * and target one name at a time as a walk opens them (never through a symbolic link put in the
 * place of a directory of the copy), and held while its entries are copied, so every name of them
 * is reached relative to the directories opened (docs/security.md); the regular files are opened,
 * looked at and made by their names in them, in {@link Part}s the workers share.
 */
public final class EntryList extends Task {

    /**
     * One entry: its source, its copy's name (in a directory that exists), whether it is a
     * command-line operand itself (looked at through a symbolic link as an operand is), whether
     * its copy is in a tree made under a staging name ({@link Placement#STAGED_PARENT}), whether
     * it was a regular file when it was planned (so is copied in a {@link Part} where it can be),
     * and the operand's source and target it is below (the source's and copy's directories are
     * opened from them, one name at a time).
     */
    public record Item(Path source, Path target, boolean operand, boolean staged, boolean file, Path sourceRoot,
            Path targetRoot) {
    }

    /** Files copied in one part at most, so that the workers share a large directory's. */
    static final int BATCH = DirectoryTask.SHARED_ABOVE;

    /**
     * The directories of a group: the source's, the copy's, whether that is in a staged tree, and
     * the operand's source and target they are below. A class with its equality written out, not a
     * record: a record's {@code equals} and {@code hashCode} are linked at their first call
     * ({@code ObjectMethods}), ~50 ms of a worker's run in a profile (see Anchors' {@code Held}).
     */
    private static final class Directories {
        private final Path source;
        private final Path target;
        private final boolean staged;
        private final Path sourceRoot;
        private final Path targetRoot;

        Directories(Path source, Path target, boolean staged, Path sourceRoot, Path targetRoot) {
            this.source = source;
            this.target = target;
            this.staged = staged;
            this.sourceRoot = sourceRoot;
            this.targetRoot = targetRoot;
        }

        Path source() {
            return source;
        }

        Path target() {
            return target;
        }

        boolean staged() {
            return staged;
        }

        Path sourceRoot() {
            return sourceRoot;
        }

        Path targetRoot() {
            return targetRoot;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Directories d && d.source.equals(source) && d.target.equals(target) && d.staged == staged
                    && d.sourceRoot.equals(sourceRoot) && d.targetRoot.equals(targetRoot);
        }

        @Override
        public int hashCode() {
            return source.hashCode() * 31 + target.hashCode();
        }
    }

    private final RunContext context;
    private final Dispatch dispatch;
    private final List<Item> items;
    private final Runnable end;
    /** The operands' roots opened for the run (by source and target root), released when it ends. */
    private final Map<List<Path>, DirectoryPair> roots = new java.util.concurrent.ConcurrentHashMap<>();

    EntryList(RunContext context, Dispatch dispatch, List<Item> items, Runnable end) {
        super(null, context.outcomes());
        this.context = context;
        this.dispatch = dispatch;
        this.items = List.copyOf(items);
        this.end = end;
    }

    @Override
    protected void execute() {
        Map<Directories, List<Item>> groups = dispatch.descriptors() == null ? null : new LinkedHashMap<>();
        for (Item item : items) {
            if (context.cancelled()) {
                return;
            }
            if (groups != null && !item.operand()) {
                Directories d = new Directories(item.source().getParent(), item.target().getParent(), item.staged(),
                        item.sourceRoot(), item.targetRoot());
                groups.computeIfAbsent(d, k -> new ArrayList<>()).add(item);
            } else {
                byPaths(this, item);
            }
        }
        if (groups != null) {
            groups.forEach((d, group) -> spawn(new Group(d, group)));
        }
    }

    /** Copies {@code item} by its paths, as part of {@code parent}. */
    private void byPaths(Task parent, Item item) {
        Dereference deref = context.options().effectiveDereference();
        boolean follow = deref == Dereference.ALWAYS
                || (item.operand() && (deref != Dereference.NEVER || PathBytes.hasTrailingSlash(item.source())));
        Stat st;
        try {
            // Through the source's directory where a group holds it, else as given.
            st = context.anchors().stat(item.source(), follow);
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

    /** The roots {@code d} is below, opened by their paths as given once for the run. */
    private DirectoryPair roots(Directories d) throws IOException {
        List<Path> key = List.of(d.sourceRoot(), d.targetRoot());
        DirectoryPair pair = roots.get(key);
        if (pair == null) {
            synchronized (roots) {
                pair = roots.get(key);
                if (pair == null) {
                    pair = context.anchors().openRoots(d.sourceRoot(), d.targetRoot());
                    roots.put(key, pair);
                }
            }
        }
        return pair;
    }

    @Override
    protected void completed() {
        roots.values().forEach(DirectoryPair::release);
        end.run();
    }

    @Override
    protected Path subject() {
        return items.isEmpty() ? Path.of(".") : items.get(0).source();
    }

    /**
     * The entries of one directory: opens the source's and the copy's directories and holds them
     * until the entries, and everything they started, are done; the regular files go in
     * {@link Part}s, the rest by their paths, which the held directories resolve. Where either
     * directory cannot be opened, a symbolic link put in the place of one included, each entry
     * fails. Without relative opens ({@link dev.cpx.core.fs.Anchors#active()}) the directories are
     * opened by their paths as given and nothing is held.
     */
    private final class Group extends Task {
        private final Directories directories;
        private final List<Item> entries;
        /** The pair held for the entries, released when all are done; null where none is held. */
        private DirectoryPair held;

        Group(Directories directories, List<Item> entries) {
            super(EntryList.this, context.outcomes());
            this.directories = directories;
            this.entries = entries;
        }

        @Override
        protected void execute() {
            dev.cpx.core.fs.Anchors anchors = context.anchors();
            DirectoryPair dirs;
            if (anchors.active()) {
                try {
                    dirs = anchors.openBelow(roots(directories), directories.sourceRoot(), directories.source(),
                            context.options().effectiveDereference() == Dereference.ALWAYS, directories.targetRoot(),
                            directories.target(), directories.staged());
                } catch (dev.cpx.core.fs.Anchors.OpenFailure e) {
                    fail(Diagnostic.of("cannot access {0}", e.path(), Diagnostic.reasonOf(e.reason())));
                    return;
                } catch (IOException e) {
                    fail(Diagnostic.of("cannot access {0}", directories.target(), Diagnostic.reasonOf(e)));
                    return;
                }
                anchors.hold(directories.source(), directories.target(), dirs);
                held = dirs;
            } else {
                dirs = DirectoryPair.open(dispatch.descriptors(), directories.source(), directories.target(),
                        directories.staged());
                if (dirs == null) {
                    entries.forEach(item -> byPaths(this, item));
                    return;
                }
            }
            try {
                List<Item> files = new ArrayList<>();
                for (Item item : entries) {
                    if (context.cancelled()) {
                        return;
                    }
                    if (item.file() && item.source().getFileName().equals(item.target().getFileName())) {
                        files.add(item);
                        if (files.size() == BATCH) {
                            dirs.retain();
                            spawn(new Part(this, dirs, files));
                            files = new ArrayList<>();
                        }
                    } else {
                        byPaths(this, item);
                    }
                }
                if (!files.isEmpty()) {
                    dirs.retain();
                    spawn(new Part(this, dirs, files));
                }
            } finally {
                if (held == null) {
                    dirs.release();
                }
            }
        }

        private void fail(Diagnostic why) {
            for (Item item : entries) {
                context.outcomes().failed(EntryKind.UNKNOWN, item.source(), item.target(), why);
            }
        }

        @Override
        protected void completed() {
            if (held != null) {
                context.anchors().drop(directories.source(), directories.target(), held);
                held = null;
            }
        }

        @Override
        protected Path subject() {
            return directories.source();
        }
    }

    /**
     * Files of one directory, copied relative to it and to its copy (see {@link FileCopier#copyAt});
     * a file that is not one any more, or is large, or whose links are tracked, is handed on as by
     * paths. Releases its reference to the pair when done.
     */
    private final class Part extends Task {
        private final Group group;
        private final DirectoryPair dirs;
        private final List<Item> files;

        Part(Group group, DirectoryPair dirs, List<Item> files) {
            super(group, context.outcomes());
            this.group = group;
            this.dirs = dirs;
            this.files = files;
        }

        @Override
        protected void execute() {
            try {
                for (Item item : files) {
                    if (context.cancelled()) {
                        return;
                    }
                    copy(item);
                }
            } finally {
                dirs.release();
            }
        }

        private void copy(Item item) {
            byte[] name = PathBytes.of(item.source().getFileName());
            Placement placement = placement(item);
            FileCopier.Left left = dispatch.files().copyAt(new Place(dirs, name), group.directories.source(),
                    group.directories.target(), new Naming(InsertionOrder.IMMEDIATE, 0), Dispatch.NAMED_OUT_OF_TURN,
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
            return group.directories.source();
        }
    }
}
