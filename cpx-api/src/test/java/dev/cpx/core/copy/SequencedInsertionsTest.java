package dev.cpx.core.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A directory's files named in index order; how many may wait holding a descriptor is {@code OpenFilesLimitTest}'s. */
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
}
