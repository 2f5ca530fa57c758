package dev.cpx.core.copy;

/**
 * An entry's turn to be named in its directory: the directory's {@link InsertionOrder} and the
 * entry's place in it. Exactly one of {@link #insert} and {@link #skip} is called for each turn.
 */
public record Naming(InsertionOrder order, int index) {

    /** For command-line operands and files named out of turn: named as soon as ready. */
    public static final Naming IMMEDIATE = new Naming(InsertionOrder.IMMEDIATE, 0);

    /** Runs {@code naming} in this entry's turn; see {@link InsertionOrder#insert}. */
    public void insert(Runnable naming, boolean holdsDescriptor) {
        order.insert(index, naming, holdsDescriptor);
    }

    /** Whether a name made now for this entry is made in order ({@link InsertionOrder#inTurn}). */
    public boolean inTurn() {
        return order.inTurn(index);
    }

    /** {@link #inTurn}, waiting briefly for a turn that is near ({@link InsertionOrder#awaitTurn}). */
    public boolean awaitTurn() {
        return order.awaitTurn(index);
    }

    /** This entry makes no new name. */
    public void skip() {
        order.skip(index);
    }
}
