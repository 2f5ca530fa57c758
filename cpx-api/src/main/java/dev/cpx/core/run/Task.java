package dev.cpx.core.run;

import java.nio.file.Path;
import java.util.concurrent.CountedCompleter;

/**
 * A unit of scheduled work. Tasks form a tree that mirrors the copied tree: a directory's task
 * completes, and gets its metadata, only after every task it forked has completed. A task never
 * completes exceptionally: failures are outcomes, and unexpected errors are reported as failures
 * of the entry they happened on, so one bad file never stops the others.
 */
public abstract class Task extends CountedCompleter<Void> {

    private final Outcomes outcomes;

    protected Task(Task parent, Outcomes outcomes) {
        super(parent);
        this.outcomes = outcomes;
    }

    @Override
    public final void compute() {
        try {
            execute();
        } catch (Throwable t) {
            internalError(t);
        }
        tryComplete();
    }

    /**
     * Reports {@code t} as this task's failure. Where even that fails (a class to load, with no
     * descriptor left to open it), the failure is still counted: the task completes either way, as a
     * task that never completes would leave the run waiting forever.
     */
    private void internalError(Throwable t) {
        try {
            outcomes.internalError(subject(), t);
        } catch (Throwable again) {
            outcomes.counters().failed.increment();
        }
    }

    /** Where this task's outcomes go. */
    protected final Outcomes outcomes() {
        return outcomes;
    }

    /** The work of this task; children are started with {@link #spawn}. */
    protected abstract void execute() throws Exception;

    /** Called once, after this task and all it spawned are done. */
    protected void completed() {
    }

    /** What this task works on, for error reports. */
    protected abstract Path subject();

    @Override
    public final void onCompletion(CountedCompleter<?> caller) {
        try {
            completed();
        } catch (Throwable t) {
            internalError(t);
        }
    }

    /** Starts {@code child}; this task completes only after it. */
    public final void spawn(Task child) {
        addToPendingCount(1);
        child.fork();
    }

    /** Runs {@code child} in this thread now, as if spawned and already finished. */
    public final void runInline(Task child) {
        addToPendingCount(1);
        child.compute();
    }
}
