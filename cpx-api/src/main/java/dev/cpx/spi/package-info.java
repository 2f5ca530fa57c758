/**
 * The engine SPI: what a copy engine implements ({@link dev.cpx.spi.CopyEngine}: move the bytes of one
 * file, or one range of it, described by a {@link dev.cpx.spi.CopyRequest}), and the optional native
 * file system support ({@link dev.cpx.spi.PosixExtras}). Engines are found with
 * {@link java.util.ServiceLoader}; helpers for writing one are in {@link dev.cpx.spi.support}.
 *
 * <p>How it evolves: methods added to an interface here after 0.1.0 come only as defaults, so an
 * engine built against an earlier release keeps working, and say since when ({@code @since}); a
 * request is derived with its {@code with} methods, never rebuilt with the constructor, so what a
 * later release adds to it is kept. "Unsupported here" is a value ({@link dev.cpx.spi.CloneResult},
 * an empty {@code Optional}), never an unexpected exception.
 */
package dev.cpx.spi;
