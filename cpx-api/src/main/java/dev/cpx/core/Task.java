package dev.cpx.core;

import java.util.concurrent.CountedCompleter;

/**
 * A unit of scheduled work. Tasks form a tree that mirrors the copied tree: a directory's task
 * completes, and gets its metadata, only after every task it forked has completed. A task never
 * completes exceptionally: failures are outcomes, and unexpected errors are reported as failures
 * of the entry they happened on, so one bad file never stops the others.
 */
abstract class Task extends CountedCompleter<Void> {

    final CopyRun run;

    Task(Task parent, CopyRun run) {
        super(parent);
        this.run = run;
    }

    @Override
    public final void compute() {
        try {
            execute();
        } catch (Throwable t) {
            run.internalError(this, t);
        }
        tryComplete();
    }

    /** The work of this task; children are started with {@link #spawn}. */
    abstract void execute() throws Exception;

    /** Called once, after this task and all it spawned are done. */
    void completed() {
    }

    /** What this task works on, for error reports. */
    abstract java.nio.file.Path subject();

    @Override
    public final void onCompletion(CountedCompleter<?> caller) {
        try {
            completed();
        } catch (Throwable t) {
            run.internalError(this, t);
        }
    }

    /** Starts {@code child}; this task completes only after it. */
    final void spawn(Task child) {
        addToPendingCount(1);
        child.fork();
    }

    /** Runs {@code child} in this thread now, as if spawned and already finished. */
    final void runInline(Task child) {
        addToPendingCount(1);
        child.compute();
    }
}
