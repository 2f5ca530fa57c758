package dev.cpx.example.throttled;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.api.EngineRegistry;
import dev.cpx.spi.CopyEngine;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What is particular to this engine: how it is found and configured. */
class ThrottledEngineTest {

    @Test
    void isFoundByServiceLoaderOnTheClassPath() {
        List<String> ids = EngineRegistry.discover().engines().stream().map(CopyEngine::id).toList();
        assertTrue(ids.contains("throttled"), ids.toString());
    }

    @Test
    void isNeverTheAutomaticChoice() throws Exception {
        assertFalse(EngineRegistry.discover().select("auto").id().equals("throttled"));
    }

    @Test
    void describesItsRate() {
        assertEquals("read/write loop limited to 20M/s in total (CPX_THROTTLE_RATE)", new ThrottledEngine("20M").description());
        assertTrue(new ThrottledEngine((String) null).description().contains(ThrottledEngine.DEFAULT_RATE + "/s"));
    }

    @Test
    void aBadRateMakesItUnavailableWithTheReason() {
        ThrottledEngine engine = new ThrottledEngine("fast");
        assertFalse(engine.availability().available());
        assertEquals("CPX_THROTTLE_RATE: 'fast' is not a rate (examples: 512K, 20M, 1G)", engine.availability().reason());
    }
}
