package dev.cpx.engine.natives;

import dev.cpx.spi.Availability;
import dev.cpx.spi.support.LinuxAbi;

/**
 * Whether the C library can be called here, decided once and never by throwing: Linux on a 64-bit
 * architecture whose errno numbers, ioctl encoding and struct layouts this module assumes, JNA on
 * the class path and able to load its own native part, and the C library functions present.
 */
final class NativeSupport {

    private static final Availability LIBC = load(false);
    private static final Availability NODES = LIBC.available() ? load(true) : LIBC;
    private static final Availability AT = LIBC.available() ? loadAt() : LIBC;

    private NativeSupport() {
    }

    /** Whether {@link LibC} is usable. */
    static Availability libc() {
        return LIBC;
    }

    /** Whether {@link LibCAt} (the calls relative to a directory, {@code getdents64}) is usable. */
    static Availability at() {
        return AT;
    }

    private static Availability loadAt() {
        try {
            LibCAt.load();
            return Availability.ok();
        } catch (LinkageError | RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            return Availability.unavailable("openat/getdents64 not loadable: " + cause);
        }
    }

    /** Whether {@link LibCNodes} ({@code mknod}) is usable. */
    static Availability nodes() {
        return NODES;
    }

    private static Availability load(boolean nodes) {
        Availability abi = LinuxAbi.check();
        if (!abi.available()) {
            return abi;
        }
        try {
            if (nodes) {
                LibCNodes.load();
            } else {
                LibC.load();
            }
            return Availability.ok();
        } catch (NoClassDefFoundError e) {
            // JNA missing, or an earlier failed initialisation of the binding class.
            return Availability.unavailable("JNA not on the class path (missing " + e.getMessage() + ")");
        } catch (UnsatisfiedLinkError e) {
            return Availability.unavailable((nodes ? "mknod" : "C library") + " not loadable: " + e.getMessage());
        } catch (LinkageError | RuntimeException e) {
            // ExceptionInInitializerError and the like: report, never throw.
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            return Availability.unavailable("native access failed: " + cause);
        }
    }
}
