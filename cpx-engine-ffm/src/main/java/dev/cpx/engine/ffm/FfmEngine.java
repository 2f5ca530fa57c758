package dev.cpx.engine.ffm;

import dev.cpx.spi.Availability;
import dev.cpx.spi.CloneResult;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.support.DescriptorCopy;
import dev.cpx.spi.support.FileDescriptors;
import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * The Linux engine of the native one ({@code copy_file_range}, then {@code sendfile}, then
 * read/write; holes kept with {@code SEEK_DATA}/{@code SEEK_HOLE}; {@code ioctl(FICLONE)}), the same
 * copy logic ({@link KernelCopy}, {@link SparseCopy}), with the C library called through the Foreign
 * Function &amp; Memory API instead of JNA: a fraction of JNA's cost per call, but more to start.
 * Available on JDK 22 and later only, where {@code --engine=auto} chooses it when JNA cannot load, or
 * always with {@code -Dcpx.ffm=prefer}; on JDK 17 to 21 it says why not and is never chosen.
 */
public final class FfmEngine implements CopyEngine {

    @Override
    public String id() {
        return "ffm";
    }

    @Override
    public String description() {
        return "Linux system calls through java.lang.foreign (JDK 22+): copy_file_range, sendfile, SEEK_DATA/SEEK_HOLE holes, FICLONE";
    }

    @Override
    public Availability availability() {
        Availability libc = FfmSupport.libc();
        return libc.available() ? FileDescriptors.availability() : libc;
    }

    /**
     * Below the native engine's 100, so {@code auto} falls back to this one where JNA cannot load;
     * above it with {@code -Dcpx.ffm=prefer} ({@link FfmSupport#preferred()} says why not by default).
     */
    @Override
    public int priority() {
        return FfmSupport.preferred() ? 110 : 90;
    }

    @Override
    public long copy(CopyRequest request) throws IOException {
        return DescriptorCopy.copy(FfmKernelCalls.INSTANCE, request);
    }

    @Override
    public CloneResult cloneFile(FileChannel source, FileChannel target) throws IOException {
        return DescriptorCopy.cloneFile(FfmKernelCalls.INSTANCE, source, target);
    }
}
