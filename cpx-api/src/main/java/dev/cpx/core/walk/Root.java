package dev.cpx.core.walk;

import dev.cpx.core.run.Outcomes;
import dev.cpx.core.run.Task;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/** The root of a run: resolves the operands, starts one task per source, and ends the run. */
public final class Root extends Task {

    private final List<Path> sources;
    private final Path destination;
    private final Operands operands;
    private final Runnable end;

    /**
     * @param operands makes the operands' reader for this root (its tasks are this root's children)
     * @param end called once everything is done
     */
    Root(Outcomes outcomes, List<Path> sources, Path destination, Function<Task, Operands> operands, Runnable end) {
        super(null, outcomes);
        this.sources = List.copyOf(sources);
        this.destination = destination;
        this.operands = operands.apply(this);
        this.end = end;
    }

    @Override
    protected void execute() {
        operands.start(sources, destination);
    }

    @Override
    protected void completed() {
        try {
            operands.finish();
        } finally {
            end.run();
        }
    }

    @Override
    protected Path subject() {
        return destination;
    }
}
