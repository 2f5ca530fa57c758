/**
 * The FFM copy engine ({@code --engine=ffm}: the native engine's system calls through
 * {@code java.lang.foreign}, JDK 22 and later) and its file system support; exports nothing,
 * provides both. Compiled for release 17: on JDK 17 to 21 both say they are unavailable.
 */
module dev.cpx.engine.ffm {
    requires dev.cpx.api;

    provides dev.cpx.spi.CopyEngine with dev.cpx.engine.ffm.FfmEngine;
    provides dev.cpx.spi.PosixExtras with dev.cpx.engine.ffm.FfmExtras;
}
