/**
 * Help for engine authors, apart from the contract: the plain read/write loop every engine falls back
 * to ({@link dev.cpx.spi.support.BufferedCopy}), per-thread buffers
 * ({@link dev.cpx.spi.support.CopyBuffers}), the descriptor behind a channel
 * ({@link dev.cpx.spi.support.FileDescriptors}), and file names as bytes
 * ({@link dev.cpx.spi.support.PathBytes}).
 */
package dev.cpx.spi.support;
