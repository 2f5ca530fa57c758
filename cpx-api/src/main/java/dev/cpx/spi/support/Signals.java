package dev.cpx.spi.support;

/** Linux signal numbers and dispositions the engines' native calls pass ({@code <signal.h>}). */
public final class Signals {

    /** {@code SIGQUIT}: Ctrl-\ at a terminal. */
    public static final int SIGQUIT = 3;
    /** {@code SIG_DFL}: the signal's default action. */
    public static final long SIG_DFL = 0;

    private Signals() {
    }
}
