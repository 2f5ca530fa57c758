package dev.cpx.core;

import dev.cpx.api.CopyJob;
import dev.cpx.api.CopyListener;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.CopySummary;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.FileInFlight;
import dev.cpx.api.FileOutcome;
import dev.cpx.api.Progress;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.CopyProgress;
import dev.cpx.spi.PosixExtras;
import java.io.InterruptedIOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One copy in progress: the shared parallel scheduler above every engine. It owns the worker
 * pool, the options, the chosen engine, the counters and the listener; tasks ask it to record
 * outcomes. Public only so {@link dev.cpx.api.Cpx} can start it; not an API.
 */
public final class CopyRun implements CopyJob {

    final CopyOptions options;
    final CopyEngine engine;
    final PosixExtras extras;
    final CopyListener listener;
    final Counters counters = new Counters();
    final FileCopier files;
    final NonFiles nonFiles;
    final Destinations destinations;
    final Xattrs xattrs;
    final Excludes excludes;
    final ResumeMarker resumeMarker;
    final Directories directories;
    final Entries entries;
    final Metadata metadata;
    final CopyProgress byteProgress;
    /** Files whose data is being copied now (see {@link #inFlight()}). */
    final Transfers transfers = new Transfers();
    /** Files waiting for their turn to be named while holding a descriptor (see {@link SequencedInsertions}). */
    final AtomicInteger waitingDescriptors = new AtomicInteger();
    /** False once the destination refused an unnamed file: then temporary names are used. */
    volatile boolean unnamedFiles = true;

    private final ForkJoinPool pool;
    private final long startNanos = System.nanoTime();
    private final CountDownLatch done = new CountDownLatch(1);
    private final Object promptLock = new Object();
    private volatile boolean cancelled;
    private volatile CopySummary summary;

    private CopyRun(CopyOptions options, CopyEngine engine, PosixExtras extras, CopyListener listener) {
        this.options = options;
        this.engine = engine;
        this.extras = extras;
        this.listener = listener;
        this.files = new FileCopier(this);
        this.nonFiles = new NonFiles(this);
        this.destinations = new Destinations(this);
        this.xattrs = new Xattrs(this);
        this.excludes = Excludes.of(options.excludes());
        this.resumeMarker = new ResumeMarker(this);
        this.directories = new Directories(this);
        this.entries = new Entries(this);
        this.metadata = new Metadata(this);
        this.byteProgress = bytes -> {
            if (cancelled) {
                throw new InterruptedIOException("copy cancelled");
            }
            counters.bytesDone.add(bytes);
        };
        AtomicInteger ids = new AtomicInteger();
        this.pool = new ForkJoinPool(options.jobs(), p -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
            t.setName("cpx-worker-" + ids.incrementAndGet());
            return t;
        }, null, false);
    }

    /** Starts a run in the background. */
    public static CopyRun start(List<Path> sources, Path destination, CopyOptions options, CopyEngine engine,
            PosixExtras extras, CopyListener listener) {
        CopyRun run = new CopyRun(options, engine, extras, listener);
        run.pool.execute(new Root(run, List.copyOf(sources), destination));
        return run;
    }

    @Override
    public Progress progress() {
        return counters.progress();
    }

    @Override
    public List<FileInFlight> inFlight() {
        return transfers.snapshot();
    }

    @Override
    public void cancel() {
        cancelled = true;
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    @Override
    public CopySummary await() throws InterruptedException {
        done.await();
        return summary;
    }

    /** Called by the root task when every task has completed. */
    void finish() {
        counters.walkDone = true;
        Counters c = counters;
        summary = new CopySummary(c.files.sum(), c.directories.sum(), c.symlinks.sum(), c.specials.sum(),
                c.bytes.sum(), c.skipped.sum(), c.failed.sum(), Duration.ofNanos(System.nanoTime() - startNanos),
                cancelled);
        pool.shutdown();
        done.countDown();
    }

    // ---- outcomes -------------------------------------------------------------------------------------

    void copied(EntryKind kind, Path source, Path target, long bytes) {
        copied(kind, source, target, bytes, null, false);
    }

    /** An entry is copied (or, with {@code --dry-run}, would be); {@code replaced} if something was there. */
    void copied(EntryKind kind, Path source, Path target, long bytes, Path backup, boolean replaced) {
        switch (kind) {
            case FILE -> {
                counters.files.increment();
                counters.bytes.add(bytes);
            }
            case DIRECTORY -> counters.directories.increment();
            case SYMLINK -> counters.symlinks.increment();
            case SPECIAL -> counters.specials.increment();
            default -> {
            }
        }
        listener.entryDone(FileOutcome.copied(kind, source, target, bytes, backup, replaced));
    }

    void skipped(EntryKind kind, Path source, Path target, Diagnostic why) {
        counters.skipped.increment();
        listener.entryDone(FileOutcome.skipped(kind, source, target, why));
    }

    void failed(EntryKind kind, Path source, Path target, Diagnostic why) {
        counters.failed.increment();
        listener.entryDone(FileOutcome.failed(kind, source, target, why));
    }

    void warning(Diagnostic warning) {
        listener.warning(warning);
    }

    /** Asks the listener a question; one question at a time. */
    boolean confirm(Diagnostic question) {
        synchronized (promptLock) {
            return listener.confirm(question);
        }
    }

    /** A bug or an unexpected runtime error: report it as the failure of the task's entry and go on. */
    void internalError(Task task, Throwable t) {
        StringWriter trace = new StringWriter();
        if (Boolean.getBoolean("cpx.debug")) {
            t.printStackTrace(new PrintWriter(trace));
        }
        String reason = "internal error: " + t + (trace.getBuffer().length() > 0 ? "\n" + trace : "");
        failed(EntryKind.UNKNOWN, task.subject(), null, Diagnostic.of("cannot copy {0}", task.subject(), reason));
    }

    /**
     * Permission bits a new entry is created with: the source's, or for files and directories the
     * defaults of {@code --no-preserve=mode} (special files keep the source's, as in GNU cp).
     */
    int creationMode(Stat st) {
        if (options.defaultModes() && (st.isDirectory() || st.isRegular())) {
            return st.isDirectory() ? 0777 : 0666;
        }
        return st.permissions();
    }

    boolean cancelled() {
        return cancelled;
    }
}
