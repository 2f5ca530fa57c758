package dev.cpx.engine.natives;

/** Prints the engine's and the extras' availability; run in a child JVM by {@link AvailabilityTest}. */
final class AvailabilityProbe {

    private AvailabilityProbe() {
    }

    public static void main(String[] args) {
        System.out.println("engine " + new NativeEngine().availability());
        System.out.println("extras " + new NativeExtras().availability());
    }
}
