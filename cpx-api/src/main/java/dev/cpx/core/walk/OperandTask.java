package dev.cpx.core.walk;

import dev.cpx.core.run.Outcomes;
import dev.cpx.core.run.Task;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One command-line operand and everything below it. GNU cp copies its operands one after the other;
 * cpx copies them at once, except where one could see another's work: an operand whose source or
 * destination lies on the path of an earlier one's starts only when every such earlier one has
 * completed (see {@link #after}), so {@code cp -r a/x b/x dir/} merges the second into the finished
 * first. Operands start in their order, each once the one before it has started (looked at its
 * source and handed its copy on), so what is decided per operand ({@code omitting directory},
 * {@code cannot stat}, a refusal) is reported in GNU's order. Nothing blocks a worker meanwhile:
 * the one that starts or completes the last operand waited for starts the next.
 */
final class OperandTask extends Task {

    private final Path source;
    /** The source and target as {@link OperandOverlaps} compares them. */
    private final Path sourceKey;
    private final Path targetKey;
    private final Runnable start;
    private final Runnable then;
    /** Run by the thread once the operands stop starting on it (the next is not ready): see {@link #execute}. */
    private final Runnable idle;
    /** Guarded by the root: operands started after this one that wait for it. */
    private final List<OperandTask> waiters = new ArrayList<>();
    private int waitingFor;
    private boolean done;
    /** Guarded by the root: whether {@link #start} has run; else {@link #next} waits for it. */
    private boolean started;
    /** Guarded by the root: the operand after this one, when it waits for this one to start. */
    private OperandTask next;
    /** Whether this operand's start is told by {@link #deferStart}'s hook rather than when {@link #start} returns. */
    private boolean deferred;
    /** The thread running {@link #start} now; null once it returned. */
    private volatile Thread runner;
    /** The next operand, ready to be run by {@link #runner} once {@link #start} returns. */
    private OperandTask handBack;
    /** Run by the thread that started the operand before it, rather than forked. */
    private boolean chained;

    /**
     * @param start the operand's work (what it spawns completes before it does)
     * @param done what follows once everything of it is done, before a later operand waiting for it starts
     */
    OperandTask(Task parent, Outcomes outcomes, Path source, Path target, Runnable start, Runnable done, Runnable idle) {
        super(parent, outcomes);
        this.source = source;
        this.start = start;
        this.then = done;
        this.idle = idle;
        this.sourceKey = OperandOverlaps.key(source);
        this.targetKey = OperandOverlaps.key(target);
    }

    /**
     * Registers this operand with {@code root}, to start once the {@code earlier} operands it may touch
     * (all of them when {@code serial}) have completed and the one before it ({@code previous}, null
     * for the first) has started; at once when there are none. Adds it to {@code earlier}.
     */
    void after(Task root, OperandOverlaps<OperandTask> earlier, OperandTask previous, boolean serial) {
        root.addToPendingCount(1);
        synchronized (root) {
            // Serial: each operand waits for every one before it, so the one before has waited for the rest.
            Iterable<OperandTask> touching = serial ? (previous == null ? List.of() : List.of(previous))
                    : earlier.touching(sourceKey, targetKey);
            for (OperandTask e : touching) {
                if (!e.done) {
                    e.waiters.add(this);
                    waitingFor++;
                }
            }
            earlier.add(this, sourceKey, targetKey);
            if (previous != null && !previous.started) {
                previous.next = this;
                waitingFor++;
            }
            if (waitingFor > 0) {
                return;
            }
        }
        fork();
    }

    @Override
    protected void execute() {
        if (chained) {
            handBack = runStart();
            return;
        }
        // The operands that become ready as each one starts here run here, one after the other, rather
        // than each handed to another worker (a wake-up each): most start in a moment.
        OperandTask next = runStart();
        while (next != null) {
            OperandTask t = next;
            t.chained = true;
            t.compute();
            next = t.handBack;
            t.handBack = null;
        }
        // What the operands started here left to be done without holding up the next (handed-on
        // writes) is done now, here, unless a worker has taken it: the next operand may wait for it.
        idle.run();
    }

    /**
     * Runs {@link #start}; returns the operand after this one when it became ready here, to be run by
     * the caller. An unexpected error is reported here, as {@link Task} reports one, so that the
     * operand after this one is not lost with it.
     */
    private OperandTask runStart() {
        runner = Thread.currentThread();
        try {
            start.run();
        } catch (RuntimeException | Error x) {
            outcomes().internalError(source, x);
        } finally {
            if (!deferred) {
                started();
            }
            runner = null;
        }
        OperandTask ready = handBack;
        handBack = null;
        return ready;
    }

    /**
     * Called by {@link #start} (in this task's thread) when this operand has started only once the
     * returned hook is run (from any thread, any number of times): a file operand whose destination
     * is decided by its copy's task, so that questions and {@code -v} lines come in operand order.
     */
    Runnable deferStart() {
        deferred = true;
        return this::started;
    }

    /** This operand has started: the one after it may (once); run by this thread's loop when told here. */
    private void started() {
        OperandTask ready = null;
        synchronized (getCompleter()) {
            if (started) {
                return;
            }
            started = true;
            if (next != null && --next.waitingFor == 0) {
                ready = next;
            }
            next = null;
        }
        if (ready == null) {
            return;
        }
        if (runner == Thread.currentThread()) {
            handBack = ready;
        } else {
            ready.fork();
        }
    }

    @Override
    protected void completed() {
        then.run();
        List<OperandTask> ready = new ArrayList<>();
        synchronized (getCompleter()) {
            done = true;
            for (OperandTask w : waiters) {
                if (--w.waitingFor == 0) {
                    ready.add(w);
                }
            }
            waiters.clear();
        }
        ready.forEach(OperandTask::fork);
    }

    @Override
    protected Path subject() {
        return source;
    }
}
