package dev.cpx.api;

import dev.cpx.core.Plans;
import dev.cpx.core.Scheduler;
import dev.cpx.spi.PosixExtras;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The library entry point: copies files and trees as {@code cp} does, in parallel, with an engine
 * chosen from the {@link EngineRegistry}.
 *
 * <pre>{@code
 * CopySummary summary = Cpx.create().copy(List.of(Path.of("src")), Path.of("dst"),
 *         CopyOptions.builder().recursive(true).build());
 * }</pre>
 */
public final class Cpx {

    private final EngineRegistry registry;

    private Cpx(EngineRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** A copier using the engines on the class path. */
    public static Cpx create() {
        return new Cpx(EngineRegistry.discover());
    }

    /** A copier using the engines of {@code registry} (e.g. one that also searched plugin directories). */
    public static Cpx create(EngineRegistry registry) {
        return new Cpx(registry);
    }

    public EngineRegistry engines() {
        return registry;
    }

    /**
     * Starts copying {@code sources} to {@code destination} in the background. Problems with single
     * files or operands are reported to {@code listener} and counted, never thrown. Paths are taken
     * as a command line gives them: a trailing slash on a source follows a symbolic link, as the
     * kernel does for {@code link/}.
     *
     * @throws EngineRegistry.UnknownEngineException when the options name an engine that is missing or unavailable
     */
    public CopyJob start(List<Path> sources, Path destination, CopyOptions options, CopyListener listener)
            throws EngineRegistry.UnknownEngineException {
        var engine = registry.select(options.engine());
        return Scheduler.start(sources, destination, options, engine, registry.extras().orElse(PosixExtras.none()), listener);
    }

    /** {@link CopyPlan#create}: the plan's steps go through here, the one door into the scheduler ({@link Plans}). */
    CopyPlan.Planned plan(Path directory, List<Path> sources, Path destination, CopyOptions options, int chunks,
            java.time.Duration lease, long splitSize) throws java.io.IOException {
        return Plans.create(directory, sources, destination, options, chunks, lease, splitSize,
                registry.extras().orElse(PosixExtras.none()));
    }

    /** {@link CopyPlan#work}. */
    CopyPlan.WorkDone work(Path directory, int jobs, java.util.function.Consumer<String> log)
            throws java.io.IOException, InterruptedException {
        return Plans.work(directory, this, jobs, log);
    }

    /** {@link CopyPlan#finish}. */
    CopyPlan.Finished finish(Path directory) throws java.io.IOException {
        return Plans.finish(directory, registry.extras().orElse(PosixExtras.none()));
    }

    /** {@link CopyPlan#status}. */
    CopyPlan.Status status(Path directory) throws java.io.IOException {
        return Plans.status(directory);
    }

    /** Copies and waits; see {@link #start}. */
    public CopySummary copy(List<Path> sources, Path destination, CopyOptions options)
            throws EngineRegistry.UnknownEngineException, InterruptedException {
        return copy(sources, destination, options, CopyListener.NONE);
    }

    /** Copies and waits, telling {@code listener} about each entry; see {@link #start}. */
    public CopySummary copy(List<Path> sources, Path destination, CopyOptions options, CopyListener listener)
            throws EngineRegistry.UnknownEngineException, InterruptedException {
        return start(sources, destination, options, listener).await();
    }
}
