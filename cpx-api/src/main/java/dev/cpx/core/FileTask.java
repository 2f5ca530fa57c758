package dev.cpx.core;

import java.nio.file.Path;

/** Copies one regular file (or, without {@code -r}, the contents of a special file). */
final class FileTask extends Task {

    private final InsertionOrder order;
    private final int index;
    private final Path src;
    private final Path dst;
    private final Stat st;
    private final Placement placement;
    private final HardLinks.Group links;

    FileTask(Task parent, CopyRun run, InsertionOrder order, int index, Path src, Path dst, Stat st, Placement placement,
            HardLinks.Group links) {
        super(parent, run);
        this.order = order;
        this.index = index;
        this.src = src;
        this.dst = dst;
        this.st = st;
        this.placement = placement;
        this.links = links;
    }

    @Override
    void execute() {
        run.files.copyFile(order, index, src, dst, st, placement, links);
    }

    @Override
    Path subject() {
        return src;
    }
}
