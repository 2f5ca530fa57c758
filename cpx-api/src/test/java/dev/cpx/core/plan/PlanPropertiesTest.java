package dev.cpx.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The plan's properties file, written without {@link Properties#store}, reads back as written. */
class PlanPropertiesTest {

    private static Properties roundTrip(Properties p) throws IOException {
        byte[] bytes = PlanDirectory.properties(p, "a comment");
        Properties back = new Properties();
        back.load(new ByteArrayInputStream(bytes));
        return back;
    }

    @Test
    void awkwardKeysAndValuesReadBack() throws IOException {
        String[] awkward = {"", " ", "  leading", "trailing  ", "a=b", "a:b", "#not a comment", "!nor this",
            "back\\slash", "tab\there", "new\nline", "cr\rlf\n", "form\ffeed", "\u00e9t\u00e9", "\u20ac",
            "\ud83d\ude00 astral", "\u0000nul", "\u007f", "*.o", "dir/**", "[a-z]?"};
        Properties p = new Properties();
        for (int i = 0; i < awkward.length; i++) {
            p.setProperty("k" + i + awkward[i], awkward[i]);
        }
        assertEquals(p, roundTrip(p));
    }

    @Test
    void randomStringsReadBack() throws IOException {
        Random random = new Random(18);
        for (int round = 0; round < 200; round++) {
            Properties p = new Properties();
            for (int k = 0; k < 5; k++) {
                p.setProperty(randomString(random), randomString(random));
            }
            assertEquals(p, roundTrip(p), "round " + round);
        }
    }

    @Test
    void noDateLineAndAsciiOnly() {
        Properties p = new Properties();
        p.setProperty("version", "3");
        p.setProperty("x", "\u00e9");
        String text = new String(PlanDirectory.properties(p, "c"), StandardCharsets.ISO_8859_1);
        assertEquals("# c\nversion=3\nx=\\u00E9\n", text);
        assertFalse(text.chars().anyMatch(c -> c > 0x7e));
    }

    private static String randomString(Random random) {
        int n = random.nextInt(12);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int kind = random.nextInt(4);
            sb.append((char) switch (kind) {
                case 0 -> 0x20 + random.nextInt(0x5f);
                case 1 -> " =:#!\\\t\n\r\f".charAt(random.nextInt(10));
                case 2 -> random.nextInt(0x20);
                default -> 0x80 + random.nextInt(0xff00);
            });
        }
        return sb.toString();
    }
}
