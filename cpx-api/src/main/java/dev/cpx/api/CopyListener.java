package dev.cpx.api;

/**
 * Hears about a copy while it runs. Called from worker threads, possibly concurrently:
 * implementations synchronize what they share.
 */
public interface CopyListener {

    /** A listener that ignores everything and answers "no" to questions. */
    CopyListener NONE = new CopyListener() {
        @Override
        public boolean hearsEveryCopy() {
            return false;
        }
    };

    /**
     * Whether {@link #starting} and {@link #entryDone} are wanted for the entries copied without
     * trouble (true unless overridden). A listener that ignores them (a quiet command line, a display
     * that reads {@link CopyJob#progress()}) answers false: then the scheduler may leave out the
     * paths and outcomes it would make for them, per file. Failures, skips, warnings and questions
     * still come.
     *
     * @since 0.4.0
     */
    default boolean hearsEveryCopy() {
        return true;
    }

    /**
     * A non-directory entry is about to be made, every check on its destination passed (where GNU
     * cp's {@code -v} prints its line: a failure to make it follows). {@code backup} is where the
     * destination went ({@code --backup}), or null.
     *
     * @since 0.2.0
     */
    default void starting(EntryKind kind, java.nio.file.Path source, java.nio.file.Path target, java.nio.file.Path backup) {
    }

    /** One entry is done: copied, skipped or failed. */
    default void entryDone(FileOutcome outcome) {
    }

    /** An existing destination entry was removed to be replaced ({@code --remove-destination}, links, special files). */
    default void removed(java.nio.file.Path target) {
    }

    /**
     * A missing parent directory of a {@code --parents} copy was created ({@code source} is the
     * corresponding source directory).
     */
    default void parentCreated(java.nio.file.Path source, java.nio.file.Path target) {
    }

    /** A warning that does not fail the copy (e.g. a source named twice). */
    default void warning(Diagnostic warning) {
    }

    /**
     * Asks the user a question (for {@code -i}), e.g. {@code overwrite {0}?}; true means yes.
     * Calls are serialized by the scheduler.
     */
    default boolean confirm(Diagnostic question) {
        return false;
    }
}
