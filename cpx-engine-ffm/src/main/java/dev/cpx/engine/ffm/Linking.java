package dev.cpx.engine.ffm;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The Foreign Function & Memory API ({@code java.lang.foreign}, final in JDK 22) reached through
 * reflection once, when this class initializes, so the module compiles with {@code --release 17}
 * and loads nothing of it on an older runtime: {@link FfmSupport} initializes this class only on
 * JDK 22 or later, and catches what it throws.
 *
 * <p>What it makes is as direct as a compiled downcall: {@link #downcall} returns the linker's own
 * method handle, only with its first parameter (the segment the call stores {@code errno} in)
 * typed {@code Object} and one shape for every function (see there); kept in a {@code static final} field and invoked exactly, the JIT inlines it
 * down to the native call. Pointers are passed as {@code long} addresses (the same register as a
 * pointer on 64-bit Linux), so no {@code MemorySegment} is made per call; the memory they point to
 * is a thread's {@link Scratch}, allocated here.
 */
final class Linking {

    /** Parameters every downcall takes (the most any bound function has). */
    static final int ARGUMENTS = 6;
    /** The functions {@link #downcall} did not find, in the order asked. */
    private static final List<String> MISSING = new CopyOnWriteArrayList<>();

    /** The linker, the C library's symbols, and the reflective pieces the bindings are made of. */
    private static final Object LINKER;
    private static final Object LIBC;
    private static final Method FIND;
    private static final Method DOWNCALL;
    /** {@code FunctionDescriptor}: a {@code long} result, {@link #ARGUMENTS} {@code long} parameters. */
    private static final Object SHAPE;
    /** {@code Linker.Option[]}: capture {@code errno}. */
    private static final Object OPTIONS;
    private static final Method AUTO_ARENA;
    private static final Method ALLOCATE;
    private static final Method ADDRESS;
    private static final Method AS_BYTE_BUFFER;
    /** Where {@code errno} lies in the capture state segment. */
    static final int ERRNO_OFFSET;
    /** Bytes of the capture state segment. */
    static final int STATE_SIZE;

    static {
        if (Runtime.version().feature() < 22) {
            throw new IllegalStateException("java.lang.foreign is final in JDK 22; this is JDK " + Runtime.version().feature());
        }
        try {
            Class<?> linker = Class.forName("java.lang.foreign.Linker");
            Class<?> lookup = Class.forName("java.lang.foreign.SymbolLookup");
            Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
            Class<?> descriptor = Class.forName("java.lang.foreign.FunctionDescriptor");
            Class<?> valueLayout = Class.forName("java.lang.foreign.ValueLayout");
            Class<?> arena = Class.forName("java.lang.foreign.Arena");
            Class<?> pathElement = Class.forName("java.lang.foreign.MemoryLayout$PathElement");
            Class<?> layout = Class.forName("java.lang.foreign.MemoryLayout");
            Class<?> option = Class.forName("java.lang.foreign.Linker$Option");
            LINKER = linker.getMethod("nativeLinker").invoke(null);
            LIBC = linker.getMethod("defaultLookup").invoke(LINKER);
            FIND = lookup.getMethod("find", String.class);
            DOWNCALL = linker.getMethod("downcallHandle", segment, descriptor, option.arrayType());
            Object longLayout = valueLayout.getField("JAVA_LONG").get(null);
            Object parameters = Array.newInstance(layout, ARGUMENTS);
            for (int i = 0; i < ARGUMENTS; i++) {
                Array.set(parameters, i, longLayout);
            }
            SHAPE = descriptor.getMethod("of", layout, layout.arrayType()).invoke(null, longLayout, parameters);
            OPTIONS = Array.newInstance(option, 1);
            Array.set(OPTIONS, 0, option.getMethod("captureCallState", String[].class).invoke(null, (Object) new String[] {"errno"}));
            Object state = option.getMethod("captureStateLayout").invoke(null);
            Object errnoPath = pathElement.getMethod("groupElement", String.class).invoke(null, "errno");
            Object path = Array.newInstance(pathElement, 1);
            Array.set(path, 0, errnoPath);
            ERRNO_OFFSET = (int) (long) layout.getMethod("byteOffset", path.getClass()).invoke(state, path);
            STATE_SIZE = (int) (long) layout.getMethod("byteSize").invoke(state);
            AUTO_ARENA = arena.getMethod("ofAuto");
            ALLOCATE = arena.getMethod("allocate", long.class, long.class);
            ADDRESS = segment.getMethod("address");
            AS_BYTE_BUFFER = segment.getMethod("asByteBuffer");
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("java.lang.foreign not usable: " + e, e);
        }
    }

    private Linking() {
    }

    /** Makes sure the linker was found (runs the static initializer). */
    static void load() {
        // Nothing to do: reaching here means the linker was found.
    }


    /** The functions the C library lacks of those asked for, comma-separated; empty when it has all. */
    static String missing() {
        return String.join(", ", MISSING);
    }

    /**
     * The downcall handle of the C library's {@code name}, or null when the C library has no such
     * symbol. Every function is linked with one shape, {@code (Object state, long x 6) long}: on the
     * 64-bit Linux ABIs cpx runs on ({@link dev.cpx.spi.support.LinuxAbi}) an {@code int} or a pointer
     * argument travels in the same register as a {@code long}, an {@code int} result is the low half
     * of the {@code long} one (the callers cast it back), arguments a function does not take are
     * ignored by it, and the variable arguments of {@code openat}'s mode and {@code ioctl}'s argument
     * are passed as fixed ones are. One shape means one call stub: the linker makes it once (tens of
     * milliseconds at start-up) and every further function costs only the binding of its address,
     * where a descriptor per signature cost as much again for each. {@code state} is the segment
     * {@code errno} is stored in ({@link Scratch#state}).
     */
    static MethodHandle downcall(String name) {
        try {
            Optional<?> symbol = (Optional<?>) FIND.invoke(LIBC, name);
            if (symbol.isEmpty()) {
                MISSING.add(name);
                return null;
            }
            MethodHandle handle = (MethodHandle) DOWNCALL.invoke(LINKER, symbol.get(), SHAPE, OPTIONS);
            Class<?>[] types = new Class<?>[ARGUMENTS + 1];
            Arrays.fill(types, long.class);
            types[0] = Object.class;
            return handle.asType(MethodType.methodType(long.class, types));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot bind " + name + ": " + e.getCause(), e);
        }
    }

    /** Native memory of {@code bytes} bytes, zeroed, from an automatic arena: freed once its segment is unreachable. */
    static Memory allocate(long bytes) {
        try {
            Object segment = ALLOCATE.invoke(AUTO_ARENA.invoke(null), bytes, 16L);
            long address = (long) ADDRESS.invoke(segment);
            ByteBuffer view = ((ByteBuffer) AS_BYTE_BUFFER.invoke(segment)).order(ByteOrder.nativeOrder());
            return new Memory(segment, address, view);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot allocate native memory: " + e.getCause(), e);
        }
    }

    /**
     * A block of native memory: the segment (which keeps it allocated while reachable), its address,
     * and a buffer over it for Java to read and write.
     */
    record Memory(Object segment, long address, ByteBuffer buffer) {
    }

    /** An exception a downcall cannot throw (its handle has no checked ones, and the C library none). */
    static Error unexpected(Throwable e) {
        return e instanceof Error error ? error : new AssertionError("downcall threw " + e, e);
    }
}
