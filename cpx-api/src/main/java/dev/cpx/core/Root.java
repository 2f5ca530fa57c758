package dev.cpx.core;

import java.nio.file.Path;
import java.util.List;

/** The root of a run: resolves the operands, starts one task per source, and ends the run. */
final class Root extends Task {

    private final List<Path> sources;
    private final Path destination;
    private Operands operands;

    Root(CopyRun run, List<Path> sources, Path destination) {
        super(null, run);
        this.sources = sources;
        this.destination = destination;
    }

    @Override
    void execute() {
        operands = new Operands(run, this);
        operands.start(sources, destination);
    }

    @Override
    void completed() {
        if (operands != null) {
            operands.finish();
        }
        run.finish();
    }

    @Override
    Path subject() {
        return destination;
    }
}
