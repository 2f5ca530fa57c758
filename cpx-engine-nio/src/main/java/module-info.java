/** The pure NIO copy engine ({@code --engine=nio}); exports nothing, provides an engine. */
module dev.cpx.engine.nio {
    requires dev.cpx.api;

    provides dev.cpx.spi.CopyEngine with dev.cpx.engine.nio.NioEngine;
}
