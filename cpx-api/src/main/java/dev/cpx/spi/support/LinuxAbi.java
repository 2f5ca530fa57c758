package dev.cpx.spi.support;

import dev.cpx.spi.Availability;
import java.util.Locale;
import java.util.Set;

/**
 * Whether this JVM runs where the engines that call the C library assume they run: Linux on a 64-bit
 * architecture with the generic errno numbers ({@link Errno}), ioctl encoding, {@code <fcntl.h>} flags
 * ({@link Fcntl}) and LP64 types. Decided from system properties, never by throwing.
 *
 * @since 0.2.0
 */
public final class LinuxAbi {

    /** Architectures (as {@code os.arch}) with the generic Linux errno numbers and ioctl encoding, and LP64. */
    private static final Set<String> ARCHITECTURES = Set.of("amd64", "x86_64", "aarch64", "riscv64", "s390x", "loongarch64");

    private LinuxAbi() {
    }

    /** Available here, or why not. */
    public static Availability check() {
        String os = System.getProperty("os.name", "");
        if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return Availability.unavailable("Linux only (this is " + os + ")");
        }
        String arch = System.getProperty("os.arch", "");
        if (!ARCHITECTURES.contains(arch)) {
            return Availability.unavailable("unsupported architecture " + arch + " (64-bit Linux with generic errno numbers only)");
        }
        return Availability.ok();
    }
}
