package dev.cpx.spi.support;

import dev.cpx.spi.Availability;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.channels.FileChannel;

/**
 * The POSIX file descriptor behind a {@link FileChannel}, for engines that call the kernel
 * directly (of a {@link DescriptorChannel} too, which needs none of the flags below for it). Read
 * through reflection where {@code --add-opens java.base/sun.nio.ch=ALL-UNNAMED} and
 * {@code --add-opens java.base/java.io=ALL-UNNAMED} open the JDK's classes, else through
 * {@link PrivateFields} (JDK 17 to 23); where neither works, {@link #availability()} says why.
 */
public final class FileDescriptors {

    /**
     * FileChannelImpl's {@code fd} field, FileDescriptor's {@code fd} field and FileChannelImpl.open,
     * found (and opened) where {@code --add-opens} allows; their method handles are made on first use
     * ({@link Handles}), as spinning them costs milliseconds of start-up that a copy through
     * {@link DescriptorChannel}s never needs.
     */
    private static final Field CHANNEL_FD_REFLECTED;
    private static final Field FD_INT_REFLECTED;
    private static final Method OPEN_REFLECTED;
    private static final Availability AVAILABILITY;
    /** Without reflection: FileChannelImpl's descriptor and readability, FileDescriptor's number. */
    private static final PrivateFields.Slot CHANNEL_FD_FIELD;
    private static final PrivateFields.Slot READABLE_FIELD;
    private static final PrivateFields.Slot FD_INT_FIELD;

    static {
        PrivateFields.Slot channelFdField = null;
        PrivateFields.Slot readableField = null;
        PrivateFields.Slot fdIntField = null;
        Field channelField = null;
        Field fdField = null;
        Method open = null;
        Availability availability;
        try {
            Class<?> impl = Class.forName("sun.nio.ch.FileChannelImpl");
            if (!PrivateFields.opened(impl) || !PrivateFields.opened(FileDescriptor.class)) {
                throw new IllegalAccessException("sun.nio.ch or java.io is not opened");
            }
            channelField = impl.getDeclaredField("fd");
            channelField.setAccessible(true);
            fdField = FileDescriptor.class.getDeclaredField("fd");
            fdField.setAccessible(true);
            open = openMethod(impl);
            open.setAccessible(true);
            availability = Availability.ok();
        } catch (ReflectiveOperationException | RuntimeException e) {
            channelField = null;
            fdField = null;
            open = null;
            channelFdField = PrivateFields.find("sun.nio.ch.FileChannelImpl", "fd", FileDescriptor.class).orElse(null);
            readableField = PrivateFields.find("sun.nio.ch.FileChannelImpl", "readable", boolean.class).orElse(null);
            fdIntField = PrivateFields.find("java.io.FileDescriptor", "fd", int.class).orElse(null);
            if (channelFdField != null && readableField != null && fdIntField != null) {
                availability = Availability.ok();
            } else {
                channelFdField = null;
                readableField = null;
                fdIntField = null;
                availability = Availability.unavailable("file descriptors not accessible (start the JVM with "
                        + "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED)");
            }
        }
        CHANNEL_FD_FIELD = channelFdField;
        READABLE_FIELD = readableField;
        FD_INT_FIELD = fdIntField;
        CHANNEL_FD_REFLECTED = channelField;
        FD_INT_REFLECTED = fdField;
        OPEN_REFLECTED = open;
        AVAILABILITY = availability;
    }

    private FileDescriptors() {
    }

    /** FileChannelImpl.open(fd, path, readable, writable, [sync,] direct, parent): its parameters vary by JDK. */
    private static Method openMethod(Class<?> impl) throws NoSuchMethodException {
        for (var m : impl.getDeclaredMethods()) {
            if (m.getName().equals("open") && (m.getParameterCount() == 6 || m.getParameterCount() == 7)
                    && m.getParameterTypes()[0] == FileDescriptor.class) {
                return m;
            }
        }
        throw new NoSuchMethodException("FileChannelImpl.open(FileDescriptor, ...)");
    }

    /** The method handles of the fields and method above, made when first used. */
    private static final class Handles {
        static final MethodHandle CHANNEL_FD;
        static final MethodHandle FD_INT;
        static final MethodHandle SET_FD;
        static final MethodHandle OPEN_CHANNEL;

        static {
            try {
                var lookup = MethodHandles.lookup();
                CHANNEL_FD = lookup.unreflectGetter(CHANNEL_FD_REFLECTED);
                FD_INT = lookup.unreflectGetter(FD_INT_REFLECTED);
                // The public constructor and a field write: FileDescriptor(int) asks fcntl for O_APPEND, a
                // system call per file that the descriptors made here never need.
                SET_FD = lookup.unreflectSetter(FD_INT_REFLECTED);
                MethodHandle h = lookup.unreflect(OPEN_REFLECTED);
                OPEN_CHANNEL = OPEN_REFLECTED.getParameterCount() == 6
                        // JDK 17: (fd, path, readable, writable, direct, parent)
                        ? MethodHandles.insertArguments(h, 4, false, null)
                        // JDK 21+: (fd, path, readable, writable, sync, direct, parent)
                        : MethodHandles.insertArguments(h, 4, false, false, null);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * A {@link FileChannel} that owns the open descriptor {@code fd} (closing the channel closes it),
     * for native code that opens files in ways NIO cannot ({@code O_TMPFILE}).
     *
     * @param description what the descriptor is, for messages (not used to open anything)
     */
    public static FileChannel channel(int fd, String description, boolean readable, boolean writable) {
        if (OPEN_REFLECTED == null && FD_INT_FIELD != null) {
            return streamChannel(fd, readable, writable);
        }
        if (OPEN_REFLECTED == null) {
            throw new IllegalStateException(AVAILABILITY.reason());
        }
        try {
            FileDescriptor descriptor = new FileDescriptor();
            Handles.SET_FD.invoke(descriptor, fd);
            return (FileChannel) Handles.OPEN_CHANNEL.invoke(descriptor, description, readable, writable);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot wrap descriptor " + fd, e);
        }
    }

    /**
     * The channel of a stream on the descriptor, which owns it (closing the channel closes the stream
     * and the descriptor; no cleaner is registered). A write stream's channel made readable too,
     * where both are asked: FileChannelImpl checks the flag, the descriptor is open for both.
     */
    private static FileChannel streamChannel(int fd, boolean readable, boolean writable) {
        FileDescriptor descriptor = new FileDescriptor();
        FD_INT_FIELD.putInt(descriptor, fd);
        PrivateFields.publish();
        if (!writable) {
            return new FileInputStream(descriptor).getChannel();
        }
        FileChannel channel = new FileOutputStream(descriptor).getChannel();
        if (readable) {
            READABLE_FIELD.putBoolean(channel, true);
            PrivateFields.publish();
        }
        return channel;
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
        if (channel instanceof DescriptorChannel d) {
            return d.descriptor();
        }
        if (CHANNEL_FD_REFLECTED == null && CHANNEL_FD_FIELD != null && CHANNEL_FD_FIELD.owner().isInstance(channel)) {
            return FD_INT_FIELD.getInt(CHANNEL_FD_FIELD.getObject(channel));
        }
        if (CHANNEL_FD_REFLECTED == null) {
            throw new IllegalStateException(AVAILABILITY.reason());
        }
        try {
            FileDescriptor fd = (FileDescriptor) Handles.CHANNEL_FD.invoke(channel);
            return (int) Handles.FD_INT.invoke(fd);
        } catch (Throwable e) {
            throw new IllegalStateException("no file descriptor for " + channel.getClass().getName(), e);
        }
    }
}
