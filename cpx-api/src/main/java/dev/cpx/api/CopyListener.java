package dev.cpx.api;

/**
 * Hears about a copy while it runs. Called from worker threads, possibly concurrently:
 * implementations synchronize what they share.
 */
public interface CopyListener {

    /** A listener that ignores everything and answers "no" to questions. */
    CopyListener NONE = new CopyListener() { };

    /** One entry is done: copied, skipped or failed. */
    default void entryDone(FileOutcome outcome) {
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
