package dev.cpx.spi.support;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.util.Optional;

/**
 * Private fields of JDK objects (a path's bytes, a channel's descriptor, a stat's inode), read where
 * their packages are not opened to cpx. {@code --add-opens} would open them, but it also turns off
 * the JDK's archived module graph, which costs every start about 25 ms (a third of the JVM's own
 * start); so on JDK 17 to 23 cpx starts without it and reads the fields through
 * {@code sun.misc.Unsafe}. From JDK 24 on, {@code Unsafe}'s field access prints a warning, so there
 * the launchers open the packages and callers use reflection: {@link #find} is empty. So it is
 * with {@code -Dcpx.privateFields=false}, for a JVM run as if on a later JDK. The same two ways
 * reach a JDK method ({@link #method}).
 */
public final class PrivateFields {

    private static final sun.misc.Unsafe UNSAFE = unsafe();

    private PrivateFields() {
    }

    private static sun.misc.Unsafe unsafe() {
        if (Runtime.version().feature() >= 24 || "false".equals(System.getProperty("cpx.privateFields"))) {
            return null;
        }
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (sun.misc.Unsafe) f.get(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Whether {@code c}'s package is open to cpx ({@code --add-opens}), so reflection may read it:
     * asked first, because a refused {@code setAccessible} costs an exception with its stack.
     */
    public static boolean opened(Class<?> c) {
        return c.getModule().isOpen(c.getPackageName(), PrivateFields.class.getModule());
    }

    /** One private instance field of one JDK class. */
    public static final class Slot {
        private final long offset;
        private final Class<?> owner;

        private Slot(Class<?> owner, long offset) {
            this.owner = owner;
            this.offset = offset;
        }

        /** The class the field is declared in. */
        public Class<?> owner() {
            return owner;
        }

        public Object getObject(Object o) {
            return UNSAFE.getObject(owner.cast(o), offset);
        }

        public int getInt(Object o) {
            return UNSAFE.getInt(owner.cast(o), offset);
        }

        public long getLong(Object o) {
            return UNSAFE.getLong(owner.cast(o), offset);
        }

        /** Sets the field of an object not yet shared with another thread. */
        public void putObject(Object o, Object value) {
            UNSAFE.putObject(owner.cast(o), offset, value);
        }

        /** Sets the field of an object not yet shared with another thread. */
        public void putInt(Object o, int value) {
            UNSAFE.putInt(owner.cast(o), offset, value);
        }

        /** Sets the field of an object not yet shared with another thread. */
        public void putBoolean(Object o, boolean value) {
            UNSAFE.putBoolean(owner.cast(o), offset, value);
        }
    }

    /**
     * The instance field {@code name} of {@code className} (of type {@code type}), or empty where
     * this JDK has no such field or field access without {@code --add-opens} is not available.
     */
    public static Optional<Slot> find(String className, String name, Class<?> type) {
        if (UNSAFE == null) {
            return Optional.empty();
        }
        try {
            Class<?> c = Class.forName(className, false, ClassLoader.getPlatformClassLoader());
            Field f = c.getDeclaredField(name);
            if (f.getType() != type || java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                return Optional.empty();
            }
            return Optional.of(new Slot(c, UNSAFE.objectFieldOffset(f)));
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }

    /**
     * A new instance of {@code owner}'s class made without running a constructor (all fields zero),
     * for classes whose constructor is not accessible and only sets fields.
     */
    public static Object allocate(Class<?> owner) {
        try {
            return UNSAFE.allocateInstance(owner);
        } catch (InstantiationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Makes the writes to a freshly made object visible before it is published. */
    public static void publish() {
        UNSAFE.storeFence();
    }

    /**
     * The method {@code name} of the JDK's {@code className} ({@code static} or not, as
     * {@code isStatic} says), of {@code type} (without the receiver), as a method handle; empty
     * where this JDK has no such method or cpx may not reach it. Found through reflection where the
     * launchers opened its package (JDK 24 and later), else through the JDK's own lookup, read with
     * {@code Unsafe} as the fields are.
     */
    public static Optional<MethodHandle> method(String className, String name, MethodType type, boolean isStatic) {
        try {
            Class<?> c = Class.forName(className, false, ClassLoader.getPlatformClassLoader());
            MethodHandles.Lookup lookup;
            if (opened(c)) {
                lookup = MethodHandles.privateLookupIn(c, MethodHandles.lookup());
            } else if (UNSAFE != null) {
                Field f = MethodHandles.Lookup.class.getDeclaredField("IMPL_LOOKUP");
                lookup = (MethodHandles.Lookup) UNSAFE.getObject(UNSAFE.staticFieldBase(f), UNSAFE.staticFieldOffset(f));
            } else {
                return Optional.empty();
            }
            return Optional.of(isStatic ? lookup.findStatic(c, name, type) : lookup.findVirtual(c, name, type));
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }
}
