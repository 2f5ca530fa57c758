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
    private final Path target;
    private final Runnable start;
    private final Runnable then;
    /** Guarded by the root: operands started after this one that wait for it. */
    private final List<OperandTask> waiters = new ArrayList<>();
    private int waitingFor;
    private boolean done;
    /** Guarded by the root: whether {@link #start} has run; else {@link #next} waits for it. */
    private boolean started;
    /** Guarded by the root: the operand after this one, when it waits for this one to start. */
    private OperandTask next;

    /**
     * @param start the operand's work (what it spawns completes before it does)
     * @param done what follows once everything of it is done, before a later operand waiting for it starts
     */
    OperandTask(Task parent, Outcomes outcomes, Path source, Path target, Runnable start, Runnable done) {
        super(parent, outcomes);
        this.source = source;
        this.target = target;
        this.start = start;
        this.then = done;
    }

    /**
     * Registers this operand with {@code root}, to start once the {@code earlier} operands it overlaps
     * (all of them when {@code serial}) have completed and the last of them has started; at once when
     * there are none.
     */
    void after(Task root, List<OperandTask> earlier, boolean serial) {
        root.addToPendingCount(1);
        synchronized (root) {
            for (OperandTask e : earlier) {
                if (!e.done && (serial || e.overlaps(source, target))) {
                    e.waiters.add(this);
                    waitingFor++;
                }
            }
            OperandTask previous = earlier.isEmpty() ? null : earlier.get(earlier.size() - 1);
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
        try {
            start.run();
        } finally {
            OperandTask ready = null;
            synchronized (getCompleter()) {
                started = true;
                if (next != null && --next.waitingFor == 0) {
                    ready = next;
                }
                next = null;
            }
            if (ready != null) {
                ready.fork();
            }
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

    /** Whether this operand and one from {@code otherSource} to {@code otherTarget} may touch the same entries. */
    boolean overlaps(Path otherSource, Path otherTarget) {
        return related(target, otherTarget) || related(target, otherSource) || related(source, otherTarget);
    }

    /** Whether one of the two paths is the other or lies below it (as written, made absolute). */
    private static boolean related(Path a, Path b) {
        Path x = a.toAbsolutePath().normalize();
        Path y = b.toAbsolutePath().normalize();
        return x.startsWith(y) || y.startsWith(x);
    }
}
