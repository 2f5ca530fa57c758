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

    FileTask(Task parent, Outcomes outcomes, FileCopier files, InsertionOrder order, int index, Entry entry,
            HardLinks.Group links) {
        super(parent, outcomes);
        this.files = files;
        this.order = order;
        this.index = index;
        this.entry = entry;
        this.links = links;
    }

    @Override
    protected void execute() {
        files.copy(entry, new Naming(order, index), links == null ? copy -> { } : links::finish);
    }

    @Override
    protected Path subject() {
        return entry.source();
    }
}
