package dev.cpx.spi;

import java.io.FileDescriptor;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.nio.channels.FileChannel;

/**
 * The POSIX file descriptor behind a {@link FileChannel}, for engines that call the kernel
 * directly. Needs {@code --add-opens java.base/sun.nio.ch=ALL-UNNAMED} and
 * {@code --add-opens java.base/java.io=ALL-UNNAMED}; without them {@link #availability()} says why.
 */
public final class FileDescriptors {

    private static final MethodHandle CHANNEL_FD;
    private static final MethodHandle FD_INT;
    private static final Availability AVAILABILITY;

    static {
        MethodHandle channelFd = null;
        MethodHandle fdInt = null;
        Availability availability;
        try {
            Class<?> impl = Class.forName("sun.nio.ch.FileChannelImpl");
            var channelField = impl.getDeclaredField("fd");
            channelField.setAccessible(true);
            var fdField = FileDescriptor.class.getDeclaredField("fd");
            fdField.setAccessible(true);
            channelFd = MethodHandles.lookup().unreflectGetter(channelField);
            fdInt = MethodHandles.lookup().unreflectGetter(fdField);
            availability = Availability.ok();
        } catch (ReflectiveOperationException | RuntimeException e) {
            availability = Availability.unavailable("file descriptors not accessible (start the JVM with "
                    + "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED)");
        }
        CHANNEL_FD = channelFd;
        FD_INT = fdInt;
        AVAILABILITY = availability;
    }

    private FileDescriptors() {
    }

    /** Whether descriptors can be read in this JVM. */
    public static Availability availability() {
        return AVAILABILITY;
    }

    /**
     * The descriptor of {@code channel}, valid while the channel is open.
     *
     * @throws IllegalStateException when unavailable or the channel is not a file channel of the default file system
     */
    public static int of(FileChannel channel) {
        if (CHANNEL_FD == null) {
            throw new IllegalStateException(AVAILABILITY.reason());
        }
        try {
            FileDescriptor fd = (FileDescriptor) CHANNEL_FD.invoke(channel);
            return (int) FD_INT.invoke(fd);
        } catch (Throwable e) {
            throw new IllegalStateException("no file descriptor for " + channel.getClass().getName(), e);
        }
    }
}
