package dev.cpx.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.api.CopyOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Claiming chunks by rename: under contention, and taking over the chunks of workers that are gone. */
class ClaimsTest {

    @TempDir
    Path dir;

    private PlanDirectory plan(int files, int chunks, long leaseMillis) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        for (int i = 0; i < files; i++) {
            Files.createFile(src.resolve("f" + i));
        }
        Planner.Result r = new Planner(List.of(src), dir.resolve("dst"), CopyOptions.builder().recursive(true).build(),
                chunks, leaseMillis, 0).write(dir.resolve("plan"));
        assertEquals(chunks, r.chunks());
        return PlanDirectory.open(dir.resolve("plan"));
    }

    @Test
    void sixtyFourClaimersTakeTenThousandChunksEachExactlyOnce() throws Exception {
        PlanDirectory plan = plan(10_000, 10_000, 60_000);
        Map<String, AtomicInteger> taken = new ConcurrentHashMap<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int t = 0; t < 64; t++) {
            Thread th = new Thread(() -> {
                try {
                    Claims claims = new Claims(plan);
                    go.await();
                    for (Optional<Claims.Claim> c = claims.next(); c.isPresent(); c = claims.next()) {
                        taken.computeIfAbsent(c.get().chunk(), k -> new AtomicInteger()).incrementAndGet();
                        assertTrue(c.get().done());
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            });
            th.start();
            threads.add(th);
        }
        go.countDown();
        for (Thread th : threads) {
            th.join();
        }
        assertEquals(List.of(), errors);
        assertEquals(10_000, taken.size(), "chunks lost");
        assertTrue(taken.values().stream().allMatch(n -> n.get() == 1), "a chunk was taken twice");
        assertEquals(10_000, PlanDirectory.list(plan.done()).size());
        assertEquals(0, PlanDirectory.list(plan.todo()).size());
        assertEquals(0, PlanDirectory.list(plan.claimed()).size());
    }

    @Test
    void aChunkOfAProcessThatIsGoneIsClaimedAgainAtOnce() throws Exception {
        PlanDirectory plan = plan(3, 3, 60_000);
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        String host = Claims.host();
        Files.move(plan.todo().resolve("00000001"), plan.claimed().resolve("00000001@" + host + "@" + dead.pid() + "@0@1"));
        // A live holder on this host keeps its chunk, however old its lease.
        long me = ProcessHandle.current().pid();
        long started = ProcessHandle.current().info().startInstant().get().toEpochMilli();
        Files.move(plan.todo().resolve("00000002"), plan.claimed().resolve("00000002@" + host + "@" + me + "@" + started + "@99"));
        Claims claims = new Claims(plan);
        List<String> got = new ArrayList<>();
        for (Optional<Claims.Claim> c = claims.next(); c.isPresent(); c = claims.next()) {
            got.add(c.get().chunk());
            c.get().done();
        }
        assertEquals(List.of("00000003", "00000001"), got);
        assertEquals(List.of("00000002@" + host + "@" + me + "@" + started + "@99"), PlanDirectory.list(plan.claimed()));
    }

    @Test
    void aChunkOfAnotherHostIsClaimedAgainOnlyOnceItsLeaseRunsOut() throws Exception {
        PlanDirectory plan = plan(2, 2, 1_500);
        Path claimed = plan.claimed().resolve("00000001@elsewhere.example@1@1@1");
        Files.move(plan.todo().resolve("00000001"), claimed);
        Files.setLastModifiedTime(claimed, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()));
        Claims claims = new Claims(plan);
        assertEquals("00000002", claims.next().orElseThrow().chunk());
        assertTrue(claims.next().isEmpty(), "a fresh lease of another host was taken over");
        Thread.sleep(1_700);
        assertEquals("00000001", claims.next().orElseThrow().chunk());
    }
}
