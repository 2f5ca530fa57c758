package dev.cpx.core;

import dev.cpx.api.Dereference;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
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
final class DirTask extends Task {

    private record Entry(Path path, Path name, Stat stat) {
    }

    final Path src;
    final Path dst;
    final Stat st;
    private final Directories.State state;
    private final Operand operand;

    DirTask(Task parent, CopyRun run, Path src, Path dst, Stat st, Directories.State state, Operand operand) {
        super(parent, run);
        this.src = src;
        this.dst = dst;
        this.st = st;
        this.state = state;
        this.operand = operand;
    }

    @Override
    void execute() {
        if (run.cancelled()) {
            return;
        }
        boolean follow = run.options.effectiveDereference() == Dereference.ALWAYS;
        List<Entry> entries = list(follow);
        if (entries == null) {
            return;
        }
        entries.sort(Comparator.comparingLong(e -> e.stat().ino()));
        InsertionOrder order = new SequencedInsertions(entries.size(), run.waitingDescriptors);
        // An operand given as "dir/" is listed as such; its entries are named "dir/name", as GNU cp names them.
        Path into = PathBytes.withoutTrailingSlashes(dst);
        Placement placement = state == Directories.State.CREATED ? Placement.NEW_PARENT : Placement.EXISTING_PARENT;
        boolean towardsCopy = operand.leadsToCopy(st);
        boolean stop = false;
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            if (stop || run.cancelled()) {
                order.skip(i);
                continue;
            }
            if (towardsCopy && e.stat().isDirectory()) {
                if (operand.isCopy(e.stat())) {
                    // GNU cp reports this once and stops here, and in each directory above on the way.
                    order.skip(i);
                    run.failed(EntryKind.DIRECTORY, operand.source(), operand.target(), Diagnostic.of(
                            "cannot copy a directory, {0}, into itself, {1}", operand.source(), operand.target()));
                    stop = true;
                    continue;
                }
                stop = operand.leadsToCopy(e.stat());
            }
            run.entries.dispatch(this, order, i, e.path(), into.resolve(e.name()), e.stat(), placement, operand);
        }
    }

    /** The entries of the source directory with their attributes; null when it cannot be read (reported). */
    private List<Entry> list(boolean follow) {
        List<Entry> entries = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(PathBytes.withoutTrailingSlashes(src))) {
            @SuppressWarnings("unchecked")
            SecureDirectoryStream<Path> secure = stream instanceof SecureDirectoryStream<?> s ? (SecureDirectoryStream<Path>) s : null;
            Excludes excludes = run.excludes;
            Path root = operand.source();
            for (Path child : stream) {
                if (run.cancelled()) {
                    break;
                }
                Path name = child.getFileName();
                Path relative = excludes.isEmpty() ? null : Excludes.relative(root, child);
                if (relative != null && excludes.excludesAnyEntry(name, relative)) {
                    // Pruned before its attributes are even read.
                    run.skipped(EntryKind.UNKNOWN, child, dst.resolve(name), Diagnostic.of("excluded {0}", child));
                    continue;
                }
                try {
                    Stat cst = secure != null ? Stat.at(secure, name, child, follow) : Stat.of(child, follow);
                    if (relative != null && cst.isDirectory() && excludes.excludesDirectory(name, relative)) {
                        run.skipped(EntryKind.DIRECTORY, child, dst.resolve(name), Diagnostic.of("excluded {0}", child));
                        continue;
                    }
                    entries.add(new Entry(child, name, cst));
                } catch (IOException e) {
                    run.failed(EntryKind.UNKNOWN, child, dst, Diagnostic.of("cannot stat {0}", child, Diagnostic.reasonOf(e)));
                }
            }
        } catch (IOException e) {
            run.failed(EntryKind.DIRECTORY, src, dst, Diagnostic.of("cannot access {0}", src, Diagnostic.reasonOf(e)));
            return null;
        } catch (DirectoryIteratorException e) {
            run.failed(EntryKind.DIRECTORY, src, dst, Diagnostic.of("cannot read directory {0}", src, Diagnostic.reasonOf(e.getCause())));
            return null;
        }
        return entries;
    }

    /** Whether {@code dir} is this directory or one it is copied under (a cycle, with {@code -L}). */
    boolean isWithin(Stat dir) {
        for (java.util.concurrent.CountedCompleter<?> p = this; p != null; p = p.getCompleter()) {
            if (p instanceof DirTask d && d.st.sameFile(dir)) {
                return true;
            }
        }
        return false;
    }

    @Override
    void completed() {
        run.directories.finish(src, dst, st, state);
    }

    @Override
    Path subject() {
        return src;
    }
}
