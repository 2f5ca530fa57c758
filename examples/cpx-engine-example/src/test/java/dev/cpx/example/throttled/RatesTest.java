package dev.cpx.example.throttled;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RatesTest {

    @ParameterizedTest
    @CsvSource({"1500, 1500", "512K, 524288", "20M, 20971520", "20m, 20971520", "20MiB, 20971520", "20MB/s, 20971520",
        "1G, 1073741824", "2T, 2199023255552", " 3k , 3072"})
    void parsesRates(String text, long bytes) {
        assertEquals(bytes, Rates.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "fast", "0", "-5M", "1.5M", "9999999999T"})
    void rejectsWhatIsNotARate(String text) {
        assertThrows(IllegalArgumentException.class, () -> Rates.parse(text));
    }

    @Test
    void formatsExactly() {
        assertEquals("20M", Rates.format(20L << 20));
        assertEquals("1500", Rates.format(1500));
        assertEquals("1536K", Rates.format(1536L << 10));
        assertEquals("1G", Rates.format(1L << 30));
    }
}
