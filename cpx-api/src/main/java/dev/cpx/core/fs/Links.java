package dev.cpx.core.fs;

import java.nio.file.LinkOption;

/** The NIO link options for following a symbolic link or not, made once. */
public final class Links {

    private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};
    private static final LinkOption[] FOLLOW = {};

    private Links() {
    }

    /** The options for an operation that follows a final symbolic link ({@code follow}) or not. */
    public static LinkOption[] options(boolean follow) {
        return follow ? FOLLOW : NOFOLLOW;
    }
}
