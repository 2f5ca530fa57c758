package dev.cpx.core.copy;

/**
 * The order in which a directory's new entries get their names. GNU cp creates a directory's
 * entries one after the other in inode order (its {@code savedir} sort); cpx copies them in
 * parallel but names them in that same order, so a copied directory is laid out as cp lays it
 * out (on ext4 a large directory's size depends on the order of its insertions). Data is
 * written before its turn; only the naming waits.
 */
public interface InsertionOrder {

    /** For operands on the command line: each is named as soon as it is ready. */
    InsertionOrder IMMEDIATE = new InsertionOrder() {
        @Override
        public void insert(int index, Runnable naming, boolean holdsDescriptor) {
            naming.run();
        }

        @Override
        public void skip(int index) {
        }

        @Override
        public boolean inTurn(int index) {
            return true;
        }
    };

    /**
     * Runs {@code naming} for the entry at {@code index} once every earlier entry has been named or
     * skipped (possibly in another thread, possibly now).
     *
     * @param holdsDescriptor whether waiting keeps a file descriptor open; too many such waits
     *     make the entry go ahead of its turn instead
     */
    void insert(int index, Runnable naming, boolean holdsDescriptor);

    /** The entry at {@code index} makes no new name (failed, excluded, existed already). */
    void skip(int index);

    /**
     * Whether every entry before {@code index} has been named or skipped, so that a name made now
     * for it (a file created under its own name in a staged tree) is made in order: only its own
     * {@link #insert} or {@link #skip} can end that.
     */
    boolean inTurn(int index);

    /**
     * {@link #inTurn}, after waiting briefly (microseconds) where only entries just before {@code index}
     * are still to be made, by other workers taking the entries one after the other: their turns end
     * with a create, so a worker that waits that long makes its file under its own name instead of
     * unnamed and named later (twice the kernel's work, and on ext4 a journaled orphan list).
     */
    default boolean awaitTurn(int index) {
        return inTurn(index);
    }
}
