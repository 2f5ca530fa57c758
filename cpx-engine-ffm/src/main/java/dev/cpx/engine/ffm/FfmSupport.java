package dev.cpx.engine.ffm;

import dev.cpx.spi.Availability;
import dev.cpx.spi.support.LinuxAbi;
import java.lang.reflect.Method;

/**
 * Whether the C library can be called through {@code java.lang.foreign} here, decided once and
 * never by throwing: JDK 22 or later (on 17 to 21 nothing of {@code java.lang.foreign} is touched),
 * native access enabled for this code ({@code --enable-native-access=ALL-UNNAMED}, which the
 * launchers give from JDK 24 on: without it the JDK would print a warning at the first downcall),
 * 64-bit Linux, the functions present in the C library, and not turned off ({@code -Dcpx.ffm=false}).
 */
final class FfmSupport {

    /** The first JDK in which {@code java.lang.foreign} is final. */
    static final int FIRST_JDK = 22;

    /**
     * {@code -Dcpx.ffm=false} (e.g. in {@code CPX_JAVA_OPTS}) turns the engine and its extras off;
     * {@code -Dcpx.ffm=prefer} makes {@code auto} and the extras lookup choose them over the native
     * (JNA) ones ({@link #preferred()}).
     */
    static final String SWITCH = "cpx.ffm";

    /** Decided on first use: binding costs start-up time, which choosing another engine need not pay. */
    private static final class Loaded {
        static final Availability LIBC = load();
    }

    private FfmSupport() {
    }

    /**
     * Whether to choose this module over the native (JNA) one where both run: only when asked
     * ({@code -Dcpx.ffm=prefer}). Measured on JDK 25 (docs/engines-ffm.md), a copy of 1,000 or
     * 10,000 files was slower with it, each with a class data archive trained its own way: what
     * {@code java.lang.foreign} costs to start up is more than its cheaper calls save there. Without
     * the preference it is what auto and the extras lookup fall back to where JNA cannot load.
     */
    static boolean preferred() {
        return "prefer".equals(System.getProperty(SWITCH));
    }

    /** Whether {@link LibC} is usable. */
    static Availability libc() {
        return Loaded.LIBC;
    }

    private static Availability load() {
        if ("false".equals(System.getProperty(SWITCH))) {
            return Availability.unavailable("turned off (-D" + SWITCH + "=false)");
        }
        int feature = Runtime.version().feature();
        if (feature < FIRST_JDK) {
            return Availability.unavailable("needs JDK " + FIRST_JDK + " or later (java.lang.foreign); this is JDK " + feature);
        }
        Availability abi = LinuxAbi.check();
        if (!abi.available()) {
            return abi;
        }
        if (!nativeAccessEnabled()) {
            return Availability.unavailable("native access is not enabled (start the JVM with --enable-native-access=ALL-UNNAMED)");
        }
        try {
            Linking.load();
            LibC.load();
            // mknodat only makes special files: without it (glibc before 2.33) they alone are unsupported.
            String missing = LibC.missing().replace("mknodat", "").replaceAll("^(, )+|(, )+$", "").replace(", , ", ", ");
            return missing.isEmpty() ? Availability.ok() : Availability.unavailable("C library lacks " + missing);
        } catch (LinkageError | RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            return Availability.unavailable("java.lang.foreign not usable: " + cause);
        }
    }

    /** {@code Module.isNativeAccessEnabled()} (JDK 22) of this code's module. */
    private static boolean nativeAccessEnabled() {
        try {
            Method enabled = Module.class.getMethod("isNativeAccessEnabled");
            return (boolean) enabled.invoke(FfmSupport.class.getModule());
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }
}
