package dev.cpx.engine.natives;

import dev.cpx.spi.Availability;
import dev.cpx.spi.CloneResult;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.support.DescriptorCopy;
import dev.cpx.spi.support.FileDescriptors;
import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * The Linux engine: copies inside the kernel ({@code copy_file_range}, then {@code sendfile}),
 * keeps holes by copying only the data segments {@code lseek(SEEK_DATA/SEEK_HOLE)} finds, and
 * clones with {@code ioctl(FICLONE)}. It calls the C library through JNA direct mapping, so it is
 * preferred by {@code --engine=auto} wherever JNA loads (but for JDK 22 and later, where the ffm
 * engine makes the same calls for less, when it is there); the user-space read/write loop is its last
 * fallback, so it copies whatever the kernel offload refuses.
 */
public final class NativeEngine implements CopyEngine {

    @Override
    public String id() {
        return "native";
    }

    @Override
    public String description() {
        return "Linux system calls through JNA: copy_file_range, sendfile, SEEK_DATA/SEEK_HOLE holes, FICLONE";
    }

    @Override
    public Availability availability() {
        Availability libc = NativeSupport.libc();
        return libc.available() ? FileDescriptors.availability() : libc;
    }

    @Override
    public int priority() {
        return 100;
    }

    @Override
    public long copy(CopyRequest request) throws IOException {
        return DescriptorCopy.copy(NativeKernelCalls.INSTANCE, request);
    }

    @Override
    public CloneResult cloneFile(FileChannel source, FileChannel target) throws IOException {
        return DescriptorCopy.cloneFile(NativeKernelCalls.INSTANCE, source, target);
    }
}
