package dev.cpx.core.walk;

import dev.cpx.core.decide.Entry;
import dev.cpx.core.decide.Placement;
import dev.cpx.core.copy.InsertionOrder;

import dev.cpx.api.Dereference;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.core.copy.Directories;
import dev.cpx.core.copy.FileCopier;
import dev.cpx.core.copy.Naming;
import dev.cpx.core.copy.Place;
import dev.cpx.core.fs.DirectoryPair;
import dev.cpx.spi.Descriptors;
import dev.cpx.spi.DirectoryEntries;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.run.RunContext;
import dev.cpx.core.run.Task;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Copies the contents of one directory whose copy exists already: lists the source once (attributes
 * read relative to the open directory), sorts the entries by inode as GNU cp does, hands each on,
 * and, once everything below it is done, gives the copy its final mode and times.
 */
final class DirectoryTask extends Task {

    private record Listed(Path path, Path name, Stat stat) {
    }

    private final RunContext context;
    private final Dispatch dispatch;
    private final Entry directory;
    private final Directories.State state;
    private final Operand operand;

    DirectoryTask(Task parent, RunContext context, Dispatch dispatch, Entry directory, Directories.State state, Operand operand) {
        super(parent, context.outcomes());
        this.context = context;
        this.dispatch = dispatch;
        this.directory = directory;
        this.state = state;
        this.operand = operand;
    }

    /** The source directory's attributes. */
    Stat stat() {
        return directory.stat();
    }

    @Override
    protected void execute() {
        if (context.cancelled()) {
            return;
        }
        Descriptors descriptors = state == Directories.State.CREATED ? dispatch.descriptors() : null;
        DirectoryPair dirs = descriptors == null ? null : DirectoryPair.open(descriptors,
                PathBytes.withoutTrailingSlashes(directory.source()), PathBytes.withoutTrailingSlashes(directory.target()));
        if (dirs != null) {
            try {
                copyOpen(dirs);
            } finally {
                dirs.release();
            }
            return;
        }
        boolean follow = context.options().effectiveDereference() == Dereference.ALWAYS;
        List<Listed> entries = list(follow);
        if (entries == null) {
            return;
        }
        entries.sort(Comparator.comparingLong(e -> e.stat().ino()));
        InsertionOrder order = dispatch.orderFor(entries.size());
        // An operand given as "dir/" is listed as such; its entries are named "dir/name", as GNU cp names them.
        Path into = PathBytes.withoutTrailingSlashes(directory.target());
        Placement placement = state == Directories.State.CREATED ? Placement.NEW_PARENT : Placement.EXISTING_PARENT;
        boolean towardsCopy = operand.leadsToCopy(directory.stat());
        boolean stop = false;
        for (int i = 0; i < entries.size(); i++) {
            Listed e = entries.get(i);
            if (stop || context.cancelled()) {
                order.skip(i);
                continue;
            }
            if (towardsCopy && e.stat().isDirectory()) {
                if (operand.isCopy(e.stat())) {
                    // GNU cp reports this once and stops here, and in each directory above on the way.
                    order.skip(i);
                    context.outcomes().failed(EntryKind.DIRECTORY, operand.source(), operand.target(), Diagnostic.of(
                            "cannot copy a directory, {0}, into itself, {1}", operand.source(), operand.target()));
                    stop = true;
                    continue;
                }
                stop = operand.leadsToCopy(e.stat());
            }
            dispatch.entry(this, order, i, new Entry(e.path(), into.resolve(e.name()), e.stat(), placement), operand);
        }
    }

    /**
     * The hot path of a plain {@code cp -r}: this directory's copy was just made, so nothing can be in
     * it, and both are open. The source is listed once ({@code getdents64}: names, inodes, types);
     * entries are taken in inode order; a regular file is opened relative to the directory, its
     * attributes read from the open file, and copied here, by this worker, named in the open copy
     * when done (its turn has come: everything before it was done already). Anything else (a
     * directory, link, special file, a file of {@link Dispatch#NAMED_OUT_OF_TURN} or more, a file that
     * changed since it was listed) is looked at ({@code fstatat}) and handed on as by the path-based walk.
     */
    private void copyOpen(DirectoryPair dirs) {
        Path from = PathBytes.withoutTrailingSlashes(directory.source());
        Path into = PathBytes.withoutTrailingSlashes(directory.target());
        DirectoryEntries list = new DirectoryEntries();
        try {
            dirs.descriptors().readDirectory(dirs.source(), list);
        } catch (IOException e) {
            context.outcomes().failed(EntryKind.DIRECTORY, directory.source(), directory.target(),
                    Diagnostic.of("cannot read directory {0}", directory.source(), Diagnostic.reasonOf(e)));
            return;
        }
        int[] sorted = list.byInode();
        InsertionOrder order = dispatch.orderFor(sorted.length);
        FileCopier files = dispatch.files();
        boolean towardsCopy = operand.leadsToCopy(directory.stat());
        boolean stop = false;
        for (int i = 0; i < sorted.length; i++) {
            if (stop || context.cancelled()) {
                order.skip(i);
                continue;
            }
            int k = sorted[i];
            byte[] name = list.name(k);
            Stat st = null;
            if (list.type(k) == DirectoryEntries.REGULAR) {
                FileCopier.Left left = files.copyAt(new Place(dirs, name), from, into, new Naming(order, i),
                        Dispatch.NAMED_OUT_OF_TURN);
                if (left == null) {
                    continue;
                }
                st = left.stat();
            }
            Path entryName = PathBytes.path(name);
            Path child = from.resolve(entryName);
            if (st == null) {
                try {
                    st = Stat.of(dirs.descriptors().status(dirs.source(), name));
                } catch (IOException e) {
                    order.skip(i);
                    context.outcomes().failed(EntryKind.UNKNOWN, child, directory.target(),
                            Diagnostic.of("cannot stat {0}", child, Diagnostic.reasonOf(e)));
                    continue;
                }
            }
            if (towardsCopy && st.isDirectory()) {
                if (operand.isCopy(st)) {
                    order.skip(i);
                    context.outcomes().failed(EntryKind.DIRECTORY, operand.source(), operand.target(), Diagnostic.of(
                            "cannot copy a directory, {0}, into itself, {1}", operand.source(), operand.target()));
                    stop = true;
                    continue;
                }
                stop = operand.leadsToCopy(st);
            }
            dispatch.entry(this, order, i, new Entry(child, into.resolve(entryName), st, Placement.NEW_PARENT), operand);
        }
    }

    /** The entries of the source directory with their attributes; null when it cannot be read (reported). */
    private List<Listed> list(boolean follow) {
        List<Listed> entries = new ArrayList<>();
        Path src = directory.source();
        Path dst = directory.target();
        Excludes excludes = dispatch.excludes();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(PathBytes.withoutTrailingSlashes(src))) {
            @SuppressWarnings("unchecked")
            SecureDirectoryStream<Path> secure = stream instanceof SecureDirectoryStream<?> s ? (SecureDirectoryStream<Path>) s : null;
            Path root = operand.source();
            for (Path child : stream) {
                if (context.cancelled()) {
                    break;
                }
                Path name = child.getFileName();
                Path relative = excludes.isEmpty() ? null : Excludes.relative(root, child);
                if (relative != null && excludes.excludesAnyEntry(name, relative)) {
                    // Pruned before its attributes are even read.
                    context.outcomes().skipped(EntryKind.UNKNOWN, child, dst.resolve(name), Diagnostic.of("excluded {0}", child));
                    continue;
                }
                try {
                    Stat cst = secure != null ? Stat.at(secure, name, child, follow) : Stat.of(child, follow);
                    if (relative != null && cst.isDirectory() && excludes.excludesDirectory(name, relative)) {
                        context.outcomes().skipped(EntryKind.DIRECTORY, child, dst.resolve(name), Diagnostic.of("excluded {0}", child));
                        continue;
                    }
                    entries.add(new Listed(child, name, cst));
                } catch (IOException e) {
                    context.outcomes().failed(EntryKind.UNKNOWN, child, dst,
                            Diagnostic.of("cannot stat {0}", child, Diagnostic.reasonOf(e)));
                }
            }
        } catch (IOException e) {
            context.outcomes().failed(EntryKind.DIRECTORY, src, dst, Diagnostic.of("cannot access {0}", src, Diagnostic.reasonOf(e)));
            return null;
        } catch (DirectoryIteratorException e) {
            context.outcomes().failed(EntryKind.DIRECTORY, src, dst,
                    Diagnostic.of("cannot read directory {0}", src, Diagnostic.reasonOf(e.getCause())));
            return null;
        }
        return entries;
    }

    /** Whether {@code dir} is this directory or one it is copied under (a cycle, with {@code -L}). */
    boolean isWithin(Stat dir) {
        for (java.util.concurrent.CountedCompleter<?> p = this; p != null; p = p.getCompleter()) {
            if (p instanceof DirectoryTask d && d.stat().sameFile(dir)) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected void completed() {
        dispatch.directories().finish(directory, state);
    }

    @Override
    protected Path subject() {
        return directory.source();
    }
}
