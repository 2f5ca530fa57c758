package dev.cpx.engine.ffm;

import org.junit.jupiter.api.Assumptions;

/**
 * The tests that need the engine running: on JDK 17 to 21 (the build's own surefire run) they are
 * skipped with this reason, and run in the module's second surefire run on a JDK 22 or later
 * (profile {@code ffm-tests}), which {@link AvailabilityTest#aJdk22RunExists} checks is there.
 */
final class OnJdk22 {

    private OnJdk22() {
    }

    static void assume() {
        Assumptions.assumeTrue(FfmSupport.libc().available(), () -> "the FFM engine is unavailable on this JDK "
                + Runtime.version().feature() + " (" + FfmSupport.libc().reason() + "); these tests run in the "
                + "module's surefire execution 'jdk22' on " + System.getProperty("cpx.test.jdk22", "a JDK 22+"));
    }
}
