package dev.cpx.spi.support;

import java.nio.channels.FileChannel;
import java.util.OptionalLong;

/**
 * The few system calls {@link KernelCopy} and {@link SparseCopy} make, as an engine binds them (JNA,
 * the Foreign Function & Memory API): each a thin pass-through that returns -1 on failure with the
 * calling thread's {@code errno} then in {@link #errno()}. Offsets are passed by value; the binding
 * puts them where the kernel wants a pointer. One implementation per engine, so the calls stay
 * monomorphic and inline.
 *
 * @since 0.2.0
 */
public interface KernelCalls {

    /** {@code _IOW(0x94, 9, int)}: make the target share all of the source's extents. */
    long FICLONE = 0x40049409L;

    /** {@code copy_file_range(in, &offset, out, &offset, length, 0)}: the same offset on both sides. */
    long copyFileRange(int in, int out, long offset, long length);

    /** {@code sendfile(out, in, &offset, length)}: reads {@code in} at {@code offset}, writes at {@code out}'s position. */
    long sendfile(int out, int in, long offset, long length);

    long lseek(int fd, long offset, int whence);

    int ftruncate(int fd, long length);

    /** {@code ioctl(out, FICLONE, in)}: {@code out} shares all of {@code in}'s extents. */
    int ficlone(int out, int in);

    /** Size and allocated bytes of {@code fd} ({@code statx}), or null when that cannot be told (then the file is treated as dense). */
    Allocation allocation(int fd);

    /** This thread's {@code errno} after its last failed call here. */
    int errno();

    /** {@link dev.cpx.spi.PosixExtras#allocatedBytes} through {@link #allocation}. */
    default OptionalLong allocatedBytes(FileChannel file) {
        Allocation allocation;
        try {
            allocation = allocation(FileDescriptors.of(file));
        } catch (IllegalStateException e) {
            return OptionalLong.empty();
        }
        return allocation == null ? OptionalLong.empty() : OptionalLong.of(allocation.allocated());
    }
}
