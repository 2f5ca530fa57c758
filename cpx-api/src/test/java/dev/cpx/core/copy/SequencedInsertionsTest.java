package dev.cpx.core.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A directory's files named in index order, and how many may wait for their turn holding a descriptor. */
class SequencedInsertionsTest {

    @Test
    void filesAreNamedInIndexOrderWhateverOrderTheyComeIn() {
        List<Integer> named = new ArrayList<>();
        AtomicInteger waiting = new AtomicInteger();
        SequencedInsertions order = new SequencedInsertions(4, waiting);
        order.insert(2, () -> named.add(2), true);
        order.skip(1);
        assertEquals(List.of(), named, "0 not there yet");
        assertEquals(1, waiting.get(), "2 waits holding its descriptor");
        order.insert(0, () -> named.add(0), true);
        assertEquals(List.of(0, 2), named);
        assertEquals(0, waiting.get());
        order.insert(3, () -> named.add(3), false);
        assertEquals(List.of(0, 2, 3), named);
    }

    @ParameterizedTest(name = "limit {0} -> {1}")
    @CsvSource({"0, 0", "32, 0", "64, 8", "128, 24", "1056, 256", "1048576, 4096", "9223372036854775807, 4096"})
    void filesWaitingWithADescriptorAreFewerUnderALowLimit(long limit, int waiting) {
        assertEquals(waiting, SequencedInsertions.budgetFor(limit));
    }
}
