package dev.cpx.engine.natives;

import com.sun.jna.Structure;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * Gives JNA the field order of its own {@code Structure.FFIType} before the first registration, so
 * that JNA does not read it from the class's {@code @FieldOrder} annotation: reading an annotation
 * spins two dynamic proxy classes, each in a dynamic module of its own, at every start (class data
 * sharing on JDK 17 cannot keep them), on the thread the copy waits for. The order is JNA's own
 * (the annotation's), checked against the class's public fields; where JNA's internals differ from
 * what this expects, nothing is done and JNA reads its annotation as before.
 */
final class FfiTypeOrder {

    private static final List<String> ORDER = List.of("size", "alignment", "type", "elements");

    private FfiTypeOrder() {
    }

    /** Records the order in JNA's cache; never throws. */
    @SuppressWarnings("unchecked")
    static void give() {
        try {
            Class<?> ffiType = Class.forName("com.sun.jna.Structure$FFIType", false, Structure.class.getClassLoader());
            Set<String> fields = new HashSet<>();
            for (Field f : ffiType.getFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    fields.add(f.getName());
                }
            }
            if (!fields.equals(Set.copyOf(ORDER))) {
                return;
            }
            Field cache = Structure.class.getDeclaredField("fieldOrder");
            Field lock = Structure.class.getDeclaredField("fieldOrderLock");
            cache.setAccessible(true);
            lock.setAccessible(true);
            Map<Class<?>, List<String>> orders = (Map<Class<?>, List<String>>) cache.get(null);
            ReadWriteLock rw = (ReadWriteLock) lock.get(null);
            rw.writeLock().lock();
            try {
                orders.putIfAbsent(ffiType, ORDER);
            } finally {
                rw.writeLock().unlock();
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // JNA's internals are not what this expects: it reads the annotation itself.
        }
    }
}
