/**
 * Help for engine authors, apart from the contract: the plain read/write loop every engine falls back
 * to ({@link dev.cpx.spi.support.BufferedCopy}), per-thread buffers
 * ({@link dev.cpx.spi.support.CopyBuffers}), the descriptor behind a channel
 * ({@link dev.cpx.spi.support.FileDescriptors}), and file names as bytes
 * ({@link dev.cpx.spi.support.PathBytes}). For engines that call the Linux kernel themselves, whatever
 * binds the calls (JNA, {@code java.lang.foreign}): the copy logic over a handful of calls they
 * provide ({@link dev.cpx.spi.support.KernelCalls}: {@link dev.cpx.spi.support.DescriptorCopy},
 * {@link dev.cpx.spi.support.KernelCopy}, {@link dev.cpx.spi.support.SparseCopy}), errno numbers,
 * words and exceptions ({@link dev.cpx.spi.support.Errno}), flags ({@link dev.cpx.spi.support.Fcntl}),
 * the layouts the kernel fills ({@link dev.cpx.spi.support.Statx}, {@link dev.cpx.spi.support.Dirents},
 * {@link dev.cpx.spi.support.Timespecs}), extended attribute lists
 * ({@link dev.cpx.spi.support.Xattrs}), and where their assumptions hold
 * ({@link dev.cpx.spi.support.LinuxAbi}).
 */
package dev.cpx.spi.support;
