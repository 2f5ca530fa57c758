package dev.cpx.core;

import dev.cpx.api.Attribute;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Creating destination directories, and giving them their final attributes once their contents are done. */
final class Directories {

    /** What happened to a destination directory. */
    enum State {
        /** Made by this run. */
        CREATED,
        /** Was there already; its contents are merged. */
        EXISTED,
        /** Could not be made; nothing below it is copied. */
        FAILED,
        /** Not attempted (cancelled). */
        SKIPPED
    }

    private final CopyRun run;

    Directories(CopyRun run) {
        this.run = run;
    }

    State create(Path src, Path dst, Stat st, Placement placement) {
        return create(src, dst, st, placement, false);
    }

    /**
     * Creates {@code dst} for the directory {@code src}; {@code markAsCopy} marks it as the copy of the
     * operand for {@code --resume} (see {@link ResumeMarker}): it is then made under its temporary
     * name, marked, and renamed, so it never exists under its name without the mark.
     */
    State create(Path src, Path dst, Stat st, Placement placement, boolean markAsCopy) {
        if (!placement.absent()) {
            // GNU's checks first: the same directory, a non-directory in the way.
            Destinations.Decision d = run.destinations.prepare(EntryKind.DIRECTORY, src, dst, st, placement);
            switch (d.action()) {
                case SKIP -> {
                    return State.FAILED;
                }
                case EXISTING, DONE -> {
                    run.counters.directories.increment();
                    return State.EXISTED;
                }
                default -> {
                    // Absent: made below.
                }
            }
        }
        if (run.options.dryRun()) {
            run.copied(EntryKind.DIRECTORY, src, dst, 0);
            return State.CREATED;
        }
        try {
            // Owner rwx while the contents are copied, whatever the source's mode: a read-only source still copies.
            if (markAsCopy && run.resumeMarker.possible()) {
                createMarked(dst, st);
            } else {
                Files.createDirectory(dst, Permissions.attribute(run.creationMode(st) | 0700));
            }
            run.copied(EntryKind.DIRECTORY, src, dst, 0);
            return State.CREATED;
        } catch (FileAlreadyExistsException e) {
            // Made by something else since it was looked at.
            try {
                if (Stat.stat(dst).isDirectory()) {
                    run.counters.directories.increment();
                    return State.EXISTED;
                }
            } catch (IOException statError) {
                // fall through to the refusal below
            }
            run.failed(EntryKind.DIRECTORY, src, dst,
                    Diagnostic.of("cannot overwrite non-directory {0} with directory {1}", dst, src));
            return State.FAILED;
        } catch (IOException e) {
            run.failed(EntryKind.DIRECTORY, src, dst, Diagnostic.of("cannot create directory {0}", dst, Diagnostic.reasonOf(e)));
            return State.FAILED;
        }
    }

    private void createMarked(Path dst, Stat st) throws IOException {
        Path temp = TempNames.of(PathBytes.withoutTrailingSlashes(dst));
        try {
            Files.createDirectory(temp, Permissions.attribute(run.creationMode(st) | 0700));
        } catch (FileAlreadyExistsException e) {
            // Left empty by a run killed between its mkdir and its rename: take it over.
            Files.delete(temp);
            Files.createDirectory(temp, Permissions.attribute(run.creationMode(st) | 0700));
        }
        run.resumeMarker.mark(temp, st);
        try {
            Files.move(temp, dst, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(temp);
            throw Destinations.lstatOrNull(dst) != null ? new FileAlreadyExistsException(dst.toString()) : e;
        }
    }

    /** After everything below {@code dst} is done: mode, ownership and times, as the options ask. */
    void finish(Path src, Path dst, Stat st, State state) {
        if ((state != State.CREATED && state != State.EXISTED) || run.options.dryRun()) {
            return;
        }
        boolean preserveMode = run.options.preserves(Attribute.MODE);
        run.metadata.apply(src, dst, dst, st, false, true);
        if (!preserveMode && state == State.CREATED) {
            // mkdir keeps the sticky bit (the umask never clears it) but NIO cannot pass it; and the
            // owner bits added while copying come off again.
            int mode = run.creationMode(st);
            int wanted = (mode & 0777 & ~Umask.get()) | (mode & 01000);
            int made = (mode | 0700) & 0777 & ~Umask.get();
            if (wanted != made) {
                try {
                    wanted |= Stat.stat(dst).permissions() & 02000; // keep a set-gid bit inherited from the parent
                } catch (IOException e) {
                    // chmod below reports the problem
                }
                run.metadata.chmod(src, dst, wanted);
            }
        }
        if (run.options.fsync()) {
            sync(src, dst);
        }
    }

    /** {@code --fsync}: makes a directory's entries durable (its files were synced before they got their names). */
    void sync(Path src, Path dst) {
        try (java.nio.channels.FileChannel dir = java.nio.channels.FileChannel.open(dst, java.nio.file.StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            run.failed(EntryKind.DIRECTORY, src, dst, Diagnostic.of("cannot sync {0}", dst, Diagnostic.reasonOf(e)));
        }
    }
}
