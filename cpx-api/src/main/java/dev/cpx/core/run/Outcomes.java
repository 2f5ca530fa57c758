package dev.cpx.core.run;

import dev.cpx.api.CopyListener;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.api.FileOutcome;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

/**
 * The one sink of a run's outcomes: each entry copied, skipped or failed (with its cause) is
 * counted and handed to the listener, like JUnit's execution results; warnings and the user's
 * answers to questions pass here too. Thread safe.
 */
public final class Outcomes {

    private final CopyListener listener;
    private final Counters counters;
    private final Object promptLock = new Object();

    public Outcomes(CopyListener listener, Counters counters) {
        this.listener = listener;
        this.counters = counters;
    }

    /** The counters outcomes are added to. */
    public Counters counters() {
        return counters;
    }

    /** Whether entries copied without trouble are to be told ({@link CopyListener#hearsEveryCopy}). */
    public boolean hearsEveryCopy() {
        return listener.hearsEveryCopy();
    }

    /** A non-directory entry is about to be made; see {@link CopyListener#starting}. */
    public void starting(EntryKind kind, Path source, Path target, Path backup) {
        listener.starting(kind, source, target, backup);
    }

    /** An entry was made (for {@code --dry-run}, would be) where nothing was. */
    public void copied(EntryKind kind, Path source, Path target, long bytes) {
        copied(kind, source, target, bytes, null, false);
    }

    /** An entry was made (or would be); {@code replaced} if something was there, {@code backup} where that went. */
    public void copied(EntryKind kind, Path source, Path target, long bytes, Path backup, boolean replaced) {
        switch (kind) {
            case FILE -> copiedUnheard(bytes);
            case DIRECTORY -> counters.directories.increment();
            case SYMLINK -> counters.symlinks.increment();
            case SPECIAL -> counters.specials.increment();
            default -> {
            }
        }
        listener.entryDone(FileOutcome.copied(kind, source, target, bytes, backup, replaced));
    }

    /** A file was made that no one hears of ({@link #hearsEveryCopy} false): counted as {@link #copied} counts it. */
    public void copiedUnheard(long bytes) {
        counters.files.increment();
        counters.bytes.add(bytes);
    }

    /** A directory that existed is merged into: counted, not reported. */
    public void merged() {
        counters.directories.increment();
    }

    public void skipped(EntryKind kind, Path source, Path target, Diagnostic why) {
        counters.skipped.increment();
        listener.entryDone(FileOutcome.skipped(kind, source, target, why));
    }

    public void failed(EntryKind kind, Path source, Path target, Diagnostic why) {
        counters.failed.increment();
        listener.entryDone(FileOutcome.failed(kind, source, target, why));
    }

    /** A failure of something other than an entry (e.g. an attribute of one), reported against {@code source}. */
    public void failed(Path source, Path target, Diagnostic why) {
        failed(EntryKind.UNKNOWN, source, target, why);
    }

    public void warning(Diagnostic warning) {
        listener.warning(warning);
    }

    /** An existing destination entry was removed to be replaced (for {@code -v}). */
    public void removed(Path target) {
        listener.removed(target);
    }

    /** A missing parent directory was made for {@code --parents}. */
    public void parentCreated(Path source, Path target) {
        listener.parentCreated(source, target);
    }

    /** Asks the user a question; one question at a time. */
    public boolean confirm(Diagnostic question) {
        synchronized (promptLock) {
            return listener.confirm(question);
        }
    }

    /** A bug or an unexpected runtime error while working on {@code subject}: its failure, and the run goes on. */
    public void internalError(Path subject, Throwable t) {
        StringWriter trace = new StringWriter();
        if (Boolean.getBoolean("cpx.debug")) {
            t.printStackTrace(new PrintWriter(trace));
        }
        String reason = "internal error: " + t + (trace.getBuffer().length() > 0 ? "\n" + trace : "");
        failed(EntryKind.UNKNOWN, subject, null, Diagnostic.of("cannot copy {0}", subject, reason));
    }
}
