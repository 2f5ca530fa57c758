package dev.cpx.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The order engines and native support are asked in ({@link EngineRegistry#highestFirst}): highest
 * priority first, the order found among equals, as a stable sort by descending priority gives.
 */
class HighestFirstTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "''            | ''",
        "a:1           | a",
        "a:1 b:2       | b a",
        "a:2 b:1       | a b",
        "a:1 b:1 c:1   | a b c",
        "a:0 b:5 c:5 d:-1 e:5 | b c e a d",
    })
    void ordersByPriorityKeepingTheOrderFoundAmongEquals(String items, String expected) {
        List<String> names = new ArrayList<>();
        List<Integer> priorities = new ArrayList<>();
        for (String item : items.trim().split(" +")) {
            if (!item.isEmpty()) {
                names.add(item.split(":")[0]);
                priorities.add(Integer.parseInt(item.split(":")[1]));
            }
        }
        int[] p = priorities.stream().mapToInt(Integer::intValue).toArray();
        assertEquals(expected.isBlank() ? List.of() : Arrays.asList(expected.trim().split(" +")),
                EngineRegistry.highestFirst(names, p));
    }

    @Test
    void agreesWithAStableSortOnGeneratedLists() {
        Random random = new Random(11);
        for (int round = 0; round < 500; round++) {
            int n = random.nextInt(9);
            List<Integer> index = new ArrayList<>();
            int[] p = new int[n];
            for (int i = 0; i < n; i++) {
                index.add(i);
                p[i] = random.nextInt(4) - 1;
            }
            List<Integer> stable = new ArrayList<>(index);
            stable.sort(Comparator.comparingInt((Integer i) -> p[i]).reversed());
            assertEquals(stable, EngineRegistry.highestFirst(index, p), () -> Arrays.toString(p));
        }
    }
}
