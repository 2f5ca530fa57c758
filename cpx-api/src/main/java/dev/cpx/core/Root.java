package dev.cpx.core;

import dev.cpx.api.Source;
import java.nio.file.Path;
import java.util.List;

/** The root of a run: resolves the operands, starts one task per source, and ends the run. */
final class Root extends Task {

    private final List<Source> sources;
    private final Path destination;

    Root(CopyRun run, List<Source> sources, Path destination) {
        super(null, run);
        this.sources = sources;
        this.destination = destination;
    }

    @Override
    void execute() {
        new Operands(run, this).start(sources, destination);
    }

    @Override
    void completed() {
        run.finish();
    }

    @Override
    Path subject() {
        return destination;
    }
}
