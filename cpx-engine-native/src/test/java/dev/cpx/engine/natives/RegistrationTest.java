package dev.cpx.engine.natives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.api.EngineRegistry;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.PosixExtras;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** The providers are found by the service loader, are available here, and auto prefers the engine. */
class RegistrationTest {

    @Test
    void theEngineIsFoundAndAvailable() {
        CopyEngine engine = ServiceLoader.load(CopyEngine.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(e -> e.id().equals("native"))
                .findFirst().orElseThrow();
        assertInstanceOf(NativeEngine.class, engine);
        assertTrue(engine.availability().available(), engine.availability().reason());
        assertEquals("", engine.availability().reason());
        assertEquals(100, engine.priority());
    }

    @Test
    void theExtrasAreFound() {
        PosixExtras extras = ServiceLoader.load(PosixExtras.class).findFirst().orElseThrow();
        assertInstanceOf(NativeExtras.class, extras);
        assertInstanceOf(NativeExtras.class, EngineRegistry.discoverExtras());
    }

    @Test
    void extrasLookedForInTheBackgroundAreTheOnesARegistryGives() {
        EngineRegistry.prepareExtras();
        EngineRegistry registry = EngineRegistry.discover();
        assertInstanceOf(NativeExtras.class, registry.extras().orElseThrow());
        assertTrue(registry.extras().orElseThrow().availability().available());
        assertEquals(java.util.List.of(), registry.problems());
        // A registry with plugin directories looks for them itself, once the background lookup is done.
        EngineRegistry withPlugins = EngineRegistry.discover(java.util.List.of(java.nio.file.Path.of("/nonexistent-plugins")));
        assertInstanceOf(NativeExtras.class, withPlugins.extras().orElseThrow());
    }

    @Test
    void autoChoosesTheNativeEngine() throws Exception {
        assertEquals("native", EngineRegistry.discover().select("auto").id());
    }
}
