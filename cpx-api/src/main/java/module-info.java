/**
 * cpx's library: the options, results and entry point ({@code dev.cpx.api}), the engine SPI
 * ({@code dev.cpx.spi}) with helpers for engine authors ({@code dev.cpx.spi.support}), and the
 * scheduler, which is not exported.
 */
module dev.cpx.api {
    // sun.misc.Unsafe, for PrivateFields.
    requires jdk.unsupported;

    exports dev.cpx.api;
    exports dev.cpx.spi;
    exports dev.cpx.spi.support;

    uses dev.cpx.spi.CopyEngine;
    uses dev.cpx.spi.PosixExtras;
}
