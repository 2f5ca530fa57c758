package dev.cpx.engine.ffm;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;

/**
 * The Foreign Function & Memory API ({@code java.lang.foreign}, final in JDK 22) reached through
 * reflection once, when this class initializes, so the module compiles with {@code --release 17}
 * and loads nothing of it on an older runtime: {@link FfmSupport} initializes this class only on
 * JDK 22 or later, and catches what it throws.
 *
 * <p>What it makes is as direct as a compiled downcall: {@link #downcall} returns the linker's own
 * method handle, only with its first parameter (the segment the call stores {@code errno} in)
 * typed {@code Object}; kept in a {@code static final} field and invoked exactly, the JIT inlines it
 * down to the native call. Pointers are passed as {@code long} addresses (the same register as a
 * pointer on 64-bit Linux), so no {@code MemorySegment} is made per call; the memory they point to
 * is a thread's {@link Scratch}, allocated here.
 */
final class Linking {

    /** The linker, the C library's symbols, and the reflective pieces the bindings are made of. */
    private static final Object LINKER;
    private static final Object LIBC;
    private static final Method FIND;
    private static final Method DOWNCALL;
    private static final Method DESCRIPTOR;
    private static final Method VOID_DESCRIPTOR;
    private static final Class<?> LAYOUT;
    private static final Class<?> OPTION;
    private static final Object INT;
    private static final Object LONG;
    private static final Object CAPTURE_ERRNO;
    private static final Method FIRST_VARIADIC;
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
            LAYOUT = Class.forName("java.lang.foreign.MemoryLayout");
            OPTION = Class.forName("java.lang.foreign.Linker$Option");
            LINKER = linker.getMethod("nativeLinker").invoke(null);
            LIBC = linker.getMethod("defaultLookup").invoke(LINKER);
            FIND = lookup.getMethod("find", String.class);
            DOWNCALL = linker.getMethod("downcallHandle", segment, descriptor, OPTION.arrayType());
            Class<?> layouts = LAYOUT.arrayType();
            DESCRIPTOR = descriptor.getMethod("of", LAYOUT, layouts);
            VOID_DESCRIPTOR = descriptor.getMethod("ofVoid", layouts);
            INT = valueLayout.getField("JAVA_INT").get(null);
            LONG = valueLayout.getField("JAVA_LONG").get(null);
            CAPTURE_ERRNO = OPTION.getMethod("captureCallState", String[].class).invoke(null, (Object) new String[] {"errno"});
            FIRST_VARIADIC = OPTION.getMethod("firstVariadicArg", int.class);
            Object state = OPTION.getMethod("captureStateLayout").invoke(null);
            Object errnoPath = pathElement.getMethod("groupElement", String.class).invoke(null, "errno");
            Object path = Array.newInstance(pathElement, 1);
            Array.set(path, 0, errnoPath);
            ERRNO_OFFSET = (int) (long) LAYOUT.getMethod("byteOffset", path.getClass()).invoke(state, path);
            STATE_SIZE = (int) (long) LAYOUT.getMethod("byteSize").invoke(state);
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

    /**
     * The downcall handle of the C library's {@code name}, or null when the C library has no such
     * symbol. {@code signature} is the return type, a colon, then the parameter types: {@code i} for
     * {@code int}, {@code j} for {@code long} (also every pointer, as an address), {@code v} for no
     * result; a {@code |} before the parameter where a variadic function's variable arguments start.
     * The handle's type is {@code (Object state, params...) result}: {@code state} is the segment
     * {@code errno} is stored in ({@link Scratch#state}).
     */
    static MethodHandle downcall(String name, String signature) {
        try {
            Optional<?> symbol = (Optional<?>) FIND.invoke(LIBC, name);
            if (symbol.isEmpty()) {
                return null;
            }
            int colon = signature.indexOf(':');
            char result = signature.charAt(0);
            String params = signature.substring(colon + 1);
            int variadic = params.indexOf('|');
            params = params.replace("|", "");
            Object layouts = Array.newInstance(LAYOUT, params.length());
            Class<?>[] types = new Class<?>[params.length() + 1];
            types[0] = Object.class;
            for (int i = 0; i < params.length(); i++) {
                Array.set(layouts, i, layout(params.charAt(i)));
                types[i + 1] = type(params.charAt(i));
            }
            Object descriptor = result == 'v' ? VOID_DESCRIPTOR.invoke(null, layouts) : DESCRIPTOR.invoke(null, layout(result), layouts);
            Object options = Array.newInstance(OPTION, variadic < 0 ? 1 : 2);
            Array.set(options, 0, CAPTURE_ERRNO);
            if (variadic >= 0) {
                Array.set(options, 1, FIRST_VARIADIC.invoke(null, variadic));
            }
            MethodHandle handle = (MethodHandle) DOWNCALL.invoke(LINKER, symbol.get(), descriptor, options);
            return handle.asType(MethodType.methodType(type(result), types));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot bind " + name + ": " + e.getCause(), e);
        }
    }

    private static Object layout(char c) {
        return switch (c) {
            case 'i' -> INT;
            case 'j' -> LONG;
            default -> throw new IllegalArgumentException("type " + c);
        };
    }

    private static Class<?> type(char c) {
        return switch (c) {
            case 'i' -> int.class;
            case 'j' -> long.class;
            case 'v' -> void.class;
            default -> throw new IllegalArgumentException("type " + c);
        };
    }

    /** Native memory of {@code bytes} bytes, zeroed, freed once {@code owner} holds it no longer. */
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
