package dev.cpx.core.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A plan's names as bytes: split into components and joined back, whatever bytes they hold. */
class PlanNamesTest {

    @Test
    void joinIsTheInverseOfComponents() throws Exception {
        Random random = new Random(21);
        for (int round = 0; round < 500; round++) {
            int depth = random.nextInt(6);
            byte[] name = {};
            for (int d = 0; d < depth; d++) {
                byte[] c = new byte[1 + random.nextInt(8)];
                for (int i = 0; i < c.length; i++) {
                    // any byte but NUL and '/', invalid UTF-8 included; '.' alone or twice is refused
                    do {
                        c[i] = (byte) (1 + random.nextInt(255));
                    } while (c[i] == '/' || c[i] == '.');
                }
                name = PlanNames.join(name, c);
            }
            List<byte[]> parts = PlanNames.components(name);
            assertEquals(depth, parts.size());
            assertArrayEquals(name, PlanNames.join(parts));
            if (depth > 1) {
                byte[] parent = PlanNames.join(parts.subList(0, depth - 1));
                assertArrayEquals(name, PlanNames.join(parent, parts.get(depth - 1)));
            }
        }
        assertArrayEquals(new byte[0], PlanNames.join(List.of()));
    }
}
