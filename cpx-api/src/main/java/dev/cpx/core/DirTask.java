package dev.cpx.core;

import dev.cpx.api.Dereference;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;

/**
 * Copies one directory: creates it at the destination, lists the source once (attributes read
 * relative to the open directory), hands each entry on, and, once everything below it is done,
 * gives the copy its final mode and times.
 */
final class DirTask extends Task {

    final Path src;
    final Path dst;
    final Stat st;
    private final boolean dstAbsent;
    private Directories.State state = Directories.State.SKIPPED;

    DirTask(Task parent, CopyRun run, Path src, Path dst, Stat st, boolean dstAbsent) {
        super(parent, run);
        this.src = src;
        this.dst = dst;
        this.st = st;
        this.dstAbsent = dstAbsent;
    }

    @Override
    void execute() {
        if (run.cancelled()) {
            return;
        }
        boolean follow = run.options.effectiveDereference() == Dereference.ALWAYS;
        if (follow && closesCycle()) {
            run.failed(EntryKind.DIRECTORY, src, dst, Diagnostic.of("cannot copy cyclic symbolic link {0}", src));
            return;
        }
        state = run.directories.create(src, dst, st, dstAbsent);
        if (state == Directories.State.FAILED) {
            return;
        }
        boolean fresh = state == Directories.State.CREATED;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(src)) {
            @SuppressWarnings("unchecked")
            SecureDirectoryStream<Path> secure = entries instanceof SecureDirectoryStream<?> s ? (SecureDirectoryStream<Path>) s : null;
            for (Path child : entries) {
                if (run.cancelled()) {
                    break;
                }
                Path name = child.getFileName();
                Stat cst;
                try {
                    cst = secure != null ? Stat.at(secure, name, follow) : Stat.of(child, follow);
                } catch (IOException e) {
                    run.failed(EntryKind.UNKNOWN, child, dst.resolve(name), Diagnostic.of("cannot stat {0}", child, Errors.reason(e)));
                    continue;
                }
                run.entries.dispatch(this, child, dst.resolve(name), cst, fresh);
            }
        } catch (IOException e) {
            run.failed(EntryKind.DIRECTORY, src, dst, Diagnostic.of("cannot access {0}", src, Errors.reason(e)));
        } catch (DirectoryIteratorException e) {
            run.failed(EntryKind.DIRECTORY, src, dst, Diagnostic.of("cannot read directory {0}", src, Errors.reason(e.getCause())));
        }
    }

    /** With {@code -L}, a link to an ancestor would copy forever: refuse the directory that repeats one. */
    private boolean closesCycle() {
        for (var p = getCompleter(); p != null; p = p.getCompleter()) {
            if (p instanceof DirTask d && d.st.sameFile(st)) {
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
