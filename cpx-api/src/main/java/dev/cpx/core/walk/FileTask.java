package dev.cpx.core.walk;

import dev.cpx.core.decide.Entry;
import dev.cpx.core.copy.InsertionOrder;

import dev.cpx.core.copy.FileCopier;
import dev.cpx.core.copy.Naming;
import dev.cpx.core.run.Outcomes;
import dev.cpx.core.run.Task;
import java.nio.file.Path;

/** Copies one regular file (or, without {@code -r}, the contents of a special file) on a worker of its own. */
final class FileTask extends Task {

    private final FileCopier files;
    private final InsertionOrder order;
    private final int index;
    private final Entry entry;
    private final HardLinks.Group links;
    /** Told once the destination is decided (see {@link FileCopier#copy(Entry, Naming, java.util.function.Consumer, Runnable)}). */
    private final Runnable decided;

    FileTask(Task parent, Outcomes outcomes, FileCopier files, InsertionOrder order, int index, Entry entry,
            HardLinks.Group links, Runnable decided) {
        super(parent, outcomes);
        this.decided = decided;
        this.files = files;
        this.order = order;
        this.index = index;
        this.entry = entry;
        this.links = links;
    }

    @Override
    protected void execute() {
        try {
            files.copy(entry, new Naming(order, index), links == null ? copy -> { } : links::finish, decided);
        } finally {
            decided.run();
        }
    }

    @Override
    protected Path subject() {
        return entry.source();
    }
}
