package dev.cpx.spi.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class PerThreadTest {

    /** A thread keeping its values in a field, as the scheduler's workers do. */
    private static final class CarrierThread extends Thread implements PerThread.Carrier {
        final Object[] slots = new Object[PerThread.SLOTS];

        CarrierThread(Runnable r) {
            super(r);
        }

        @Override
        public Object[] perThread() {
            return slots;
        }
    }

    private static Object on(Thread thread, AtomicReference<Object> seen) throws InterruptedException {
        thread.start();
        thread.join();
        return seen.get();
    }

    @Test
    void eachThreadHasItsOwnValueMadeOnceWhereverItIsKept() throws InterruptedException {
        AtomicInteger made = new AtomicInteger();
        PerThread<Object> value = PerThread.withInitial(() -> {
            made.incrementAndGet();
            return new Object();
        });
        List<Object> values = new ArrayList<>();
        List<CarrierThread> carriers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            AtomicReference<Object> seen = new AtomicReference<>();
            CarrierThread carrier = new CarrierThread(() -> {
                Object first = value.get();
                seen.set(first == value.get() ? first : null);
            });
            carriers.add(carrier);
            values.add(on(carrier, seen));
            AtomicReference<Object> plain = new AtomicReference<>();
            values.add(on(new Thread(() -> {
                Object first = value.get();
                plain.set(first == value.get() ? first : null);
            }), plain));
        }
        values.add(value.get());
        assertSame(values.get(4), value.get(), "the same value on the same thread");
        assertEquals(5, made.get(), "one value per thread, made on its first get");
        for (int i = 0; i < values.size(); i++) {
            for (int j = i + 1; j < values.size(); j++) {
                assertNotSame(values.get(i), values.get(j));
            }
        }
        for (int i = 0; i < 2; i++) {
            assertTrue(Arrays.asList(carriers.get(i).slots).contains(values.get(2 * i)), "a carrier keeps its value in its own slots");
        }
    }

    @Test
    void valuesMadeBeyondTheSlotsLiveInAThreadLocal() throws InterruptedException {
        List<PerThread<Object>> many = new ArrayList<>();
        for (int i = 0; i <= PerThread.SLOTS; i++) {
            many.add(PerThread.withInitial(Object::new));
        }
        AtomicReference<Object> ok = new AtomicReference<>();
        CarrierThread carrier = new CarrierThread(() -> {
            List<Object> first = new ArrayList<>();
            for (PerThread<Object> p : many) {
                first.add(p.get());
            }
            for (int i = 0; i < many.size(); i++) {
                if (many.get(i).get() != first.get(i)) {
                    return;
                }
            }
            ok.set(first);
        });
        @SuppressWarnings("unchecked")
        List<Object> first = (List<Object>) on(carrier, ok);
        assertEquals(many.size(), first.size(), "every value kept for the thread, in a slot or not");
        int inSlots = 0;
        for (Object slot : carrier.slots) {
            if (slot != null) {
                inSlots++;
            }
        }
        assertTrue(inSlots < many.size(), "more values than slots: some kept elsewhere");
    }
}
