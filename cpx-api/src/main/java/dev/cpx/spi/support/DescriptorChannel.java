package dev.cpx.spi.support;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.function.IntConsumer;

/**
 * A {@link FileChannel} over a descriptor opened natively, that makes NIO's own channel only when a
 * channel operation is first used. An engine that calls the kernel itself takes the descriptor back
 * with {@link FileDescriptors#of} and never causes one to be made: the scheduler opens two files per
 * copied file, and NIO's channel costs, besides its objects, a registration with the JDK's one shared
 * {@code Cleaner} when made and again when closed, under one lock every worker contends for.
 * Closing this channel closes the descriptor (through NIO's channel once there is one).
 *
 * @since 0.2.0
 */
public final class DescriptorChannel extends FileChannel {

    private final int fd;
    private final boolean readable;
    private final boolean writable;
    private final IntConsumer close;
    private volatile FileChannel nio;

    private DescriptorChannel(int fd, boolean readable, boolean writable, IntConsumer close) {
        this.fd = fd;
        this.readable = readable;
        this.writable = writable;
        this.close = close;
    }

    /**
     * A channel owning the open descriptor {@code fd}.
     *
     * @param close closes {@code fd} when the channel is closed before NIO's channel was made
     */
    public static FileChannel of(int fd, boolean readable, boolean writable, IntConsumer close) {
        return new DescriptorChannel(fd, readable, writable, close);
    }

    /** The descriptor, valid while the channel is open. */
    public int descriptor() {
        return fd;
    }

    /** NIO's channel over the descriptor, made on first use. */
    private FileChannel nio() throws IOException {
        FileChannel c = nio;
        if (c == null) {
            synchronized (this) {
                if (!isOpen()) {
                    throw new ClosedChannelException();
                }
                c = nio;
                if (c == null) {
                    try {
                        c = FileDescriptors.channel(fd, "descriptor " + fd, readable, writable);
                    } catch (IllegalStateException e) {
                        throw new IOException("no NIO channel for descriptor " + fd + ": " + e.getMessage(), e);
                    }
                    nio = c;
                }
            }
        }
        return c;
    }

    /** NIO's own channel for {@code c} where it is one of these, so NIO takes its in-kernel paths between files. */
    private static Object unwrap(Object c) throws IOException {
        return c instanceof DescriptorChannel d ? d.nio() : c;
    }

    @Override
    protected void implCloseChannel() throws IOException {
        FileChannel c;
        synchronized (this) {
            c = nio;
        }
        if (c != null) {
            c.close();
        } else {
            try {
                close.accept(fd);
            } catch (java.io.UncheckedIOException e) {
                throw e.getCause();
            }
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return nio().read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        return nio().read(dsts, offset, length);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return nio().write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        return nio().write(srcs, offset, length);
    }

    @Override
    public long position() throws IOException {
        return nio().position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        nio().position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return nio().size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        nio().truncate(size);
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        nio().force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        return nio().transferTo(position, count, (WritableByteChannel) unwrap(target));
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        return nio().transferFrom((ReadableByteChannel) unwrap(src), position, count);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return nio().read(dst, position);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        return nio().write(src, position);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        return nio().map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return nio().lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return nio().tryLock(position, size, shared);
    }

    @Override
    public String toString() {
        return "DescriptorChannel[fd " + fd + (nio != null ? ", " + nio : "") + "]";
    }
}
