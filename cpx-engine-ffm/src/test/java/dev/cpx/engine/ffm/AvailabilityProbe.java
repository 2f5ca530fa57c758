package dev.cpx.engine.ffm;

import dev.cpx.api.EngineRegistry;

/** Prints the engine's and the extras' availability and what auto chooses; run in a child JVM by {@link ChildJvmTest}. */
final class AvailabilityProbe {

    private AvailabilityProbe() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("engine " + new FfmEngine().availability());
        System.out.println("extras " + new FfmExtras().availability());
        System.out.println("auto " + EngineRegistry.discover().select("auto").id());
        System.out.println("found extras " + EngineRegistry.discoverExtras().getClass().getSimpleName());
    }
}
