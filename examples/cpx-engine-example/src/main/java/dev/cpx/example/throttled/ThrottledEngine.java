package dev.cpx.example.throttled;

import dev.cpx.spi.Availability;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.CopyRequest;
import dev.cpx.spi.support.BufferedCopy;
import java.io.IOException;

/**
 * An engine that copies with the plain read/write loop ({@link BufferedCopy}) but never faster than
 * a set number of bytes per second, in total over all workers: for copies that must leave a disk or
 * a network file system usable for others. The rate comes from the environment variable
 * {@value #RATE_ENV} ({@code 20M} is 20 MiB/s; default {@value #DEFAULT_RATE}).
 *
 * <p>ServiceLoader creates it with the public no-argument constructor; tests pass a rate directly.
 */
public final class ThrottledEngine implements CopyEngine {

    /** Environment variable holding the rate, e.g. {@code 512K}, {@code 20M}, {@code 1G}. */
    public static final String RATE_ENV = "CPX_THROTTLE_RATE";

    static final String DEFAULT_RATE = "10M";

    private final Throttle throttle;
    private final Availability availability;

    /** The engine as a plugin: its rate from {@value #RATE_ENV}. */
    public ThrottledEngine() {
        this(System.getenv(RATE_ENV));
    }

    ThrottledEngine(String rate) {
        String setting = rate == null || rate.isBlank() ? DEFAULT_RATE : rate.strip();
        Throttle t = null;
        Availability a;
        try {
            t = new Throttle(Rates.parse(setting));
            a = Availability.ok();
        } catch (IllegalArgumentException e) {
            // A bad setting makes the engine unavailable, with the reason in --list-engines; it must not throw.
            a = Availability.unavailable(RATE_ENV + ": " + e.getMessage());
        }
        this.throttle = t;
        this.availability = a;
    }

    @Override
    public String id() {
        return "throttled";
    }

    @Override
    public String description() {
        return throttle == null ? "read/write loop limited to the rate in " + RATE_ENV
                : "read/write loop limited to " + Rates.format(throttle.bytesPerSecond()) + "/s in total (" + RATE_ENV + ")";
    }

    @Override
    public Availability availability() {
        return availability;
    }

    /** Never chosen by {@code --engine=auto}: only when asked for by name. */
    @Override
    public int priority() {
        return -100;
    }

    @Override
    public long copy(CopyRequest request) throws IOException {
        if (throttle == null) {
            throw new IOException("engine 'throttled' is not available: " + availability.reason());
        }
        // BufferedCopy reports each buffer it wrote to the request's progress; waiting there paces the
        // copy, and passing the bytes on keeps progress and cancellation working.
        CopyRequest paced = request.withProgress(bytes -> {
            throttle.acquire(bytes);
            request.progress().advance(bytes);
        });
        return BufferedCopy.copy(paced);
    }
}
