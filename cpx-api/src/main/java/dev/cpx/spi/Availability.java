package dev.cpx.spi;

import java.util.Objects;

/**
 * Whether an engine or an optional capability can run here, and if not, why.
 *
 * @param available true when it can be used
 * @param reason why not, for {@code --list-engines}; empty when available
 */
public record Availability(boolean available, String reason) {

    private static final Availability AVAILABLE = new Availability(true, "");

    public Availability {
        Objects.requireNonNull(reason, "reason");
    }

    public static Availability ok() {
        return AVAILABLE;
    }

    public static Availability unavailable(String reason) {
        return new Availability(false, reason);
    }
}
