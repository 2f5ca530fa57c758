package dev.cpx.engine.natives;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/**
 * The C library's text in the process's locale, bound apart from {@link LibC} on first use: a name
 * is asked about only where it has a character beyond ASCII, and {@code strerror} only by the tests.
 * Direct mapping as {@link LibC}.
 */
final class LibCText {

    static {
        Native.register(LibCText.class, NativeLibrary.getInstance(LibC.LIBRARY));
    }

    private LibCText() {
    }

    /** {@code iswprint(3)}: non-zero where the locale prints the wide character {@code wc}. */
    static native int iswprint(int wc);

    /** The C library's own words for {@code errno}, to check {@link dev.cpx.spi.support.Errno}'s table against. */
    static native String strerror(int errno);
}
