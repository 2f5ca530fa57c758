package dev.cpx.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.ReflinkMode;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the planner splits big files: ranges covering the file exactly, each range of a file in
 * another chunk, hard-linked files and files up to the split size whole, nothing split with a split
 * size of 0 or with {@code --reflink=always}.
 */
class PlannerSplitTest {

    @TempDir
    Path dir;

    private static final CopyOptions ARCHIVE = CopyOptions.builder().recursive(true)
            .preserve(Attribute.MODE, Attribute.TIMESTAMPS, Attribute.LINKS).build();

    private void source() throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.write(src.resolve("big"), new byte[100_001]);
        Files.write(src.resolve("exact"), new byte[10_000]);
        Files.write(src.resolve("linked"), new byte[50_000]);
        Files.createLink(src.resolve("linked2"), src.resolve("linked"));
        for (int i = 0; i < 30; i++) {
            Files.write(src.resolve("small" + i), new byte[i]);
        }
    }

    /** Every chunk's entries, by chunk. */
    private List<List<PlanEntry>> chunks(CopyOptions options, long splitSize) throws Exception {
        new Planner(List.of(dir.resolve("src")), dir.resolve("dst"), options, 4, 60_000, splitSize).write(dir.resolve("plan"));
        PlanDirectory plan = PlanDirectory.open(dir.resolve("plan"));
        List<List<PlanEntry>> chunks = new ArrayList<>();
        for (Manifest.Chunk c : plan.manifest().chunks()) {
            List<PlanEntry> entries = new ArrayList<>();
            byte[] content = Files.readAllBytes(plan.todo().resolve(c.name()));
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(content))) {
                for (PlanEntry e = PlanEntry.read(in); e != null; e = PlanEntry.read(in)) {
                    entries.add(e);
                }
            }
            chunks.add(entries);
        }
        return chunks;
    }

    private static String name(PlanEntry e) {
        return new String(e.name(), StandardCharsets.UTF_8);
    }

    @Test
    void aBigFileBecomesRangesInDifferentChunksCoveringItExactly() throws Exception {
        source();
        List<List<PlanEntry>> chunks = chunks(ARCHIVE, 10_000);
        List<PlanEntry.Range> ranges = new ArrayList<>();
        for (List<PlanEntry> chunk : chunks) {
            Set<Long> files = new HashSet<>();
            for (PlanEntry e : chunk) {
                if (e.kind() == PlanEntry.RANGE) {
                    assertEquals("big", name(e));
                    assertEquals(100_001, e.size());
                    assertTrue(files.add(e.range().file()), "two ranges of one file in one chunk");
                    ranges.add(e.range());
                } else {
                    assertTrue(e.kind() != PlanEntry.FILE || e.size() <= 10_000 || name(e).startsWith("linked"), name(e));
                }
            }
        }
        assertEquals(11, ranges.size());
        ranges.sort((a, b) -> Long.compare(a.offset(), b.offset()));
        long next = 0;
        for (int i = 0; i < ranges.size(); i++) {
            assertEquals(i, ranges.get(i).index());
            assertEquals(11, ranges.get(i).count());
            assertEquals(next, ranges.get(i).offset());
            next += ranges.get(i).length();
        }
        assertEquals(100_001, next);
        assertTrue(chunks.size() >= 11);
        try (DataInputStream in = new DataInputStream(Files.newInputStream(dir.resolve("plan/splits")))) {
            SplitFiles.Split s = SplitFiles.read(in);
            assertEquals("big", new String(s.name(), StandardCharsets.UTF_8));
            assertEquals(11, s.count());
            assertEquals(null, SplitFiles.read(in));
        }
    }

    @Test
    void asManyChunksAsAskedWhereThereAreAsManyUnitsWhateverTheirOrder() throws Exception {
        // One heavy file among light ones: wherever the walk puts it, 6 units make 6 chunks (the heavy one
        // last used to cross two thresholds at once and leave a chunk out), and 10 asked make 6.
        Path src = Files.createDirectories(dir.resolve("src"));
        for (int i = 0; i < 5; i++) {
            Files.write(src.resolve("light" + i), new byte[1]);
        }
        Files.write(src.resolve("heavy"), new byte[1 << 20]);
        for (int target : new int[] {6, 10, 3}) {
            new Planner(List.of(src), dir.resolve("dst"), ARCHIVE, target, 60_000, 0).write(dir.resolve("plan"));
            List<Manifest.Chunk> chunks = PlanDirectory.open(dir.resolve("plan")).manifest().chunks();
            assertEquals(Math.min(target, 6), chunks.size(), "chunks for " + target);
            assertEquals(6, chunks.stream().mapToLong(Manifest.Chunk::entries).sum());
            assertTrue(chunks.stream().allMatch(c -> c.entries() > 0));
            deleteTree(dir.resolve("plan"));
        }
    }

    @Test
    void nothingIsSplitWithSplitSizeZeroOrWithReflinkAlways() throws Exception {
        source();
        for (CopyOptions o : List.of(ARCHIVE, ARCHIVE.toBuilder().reflink(ReflinkMode.ALWAYS).build())) {
            long split = o.reflink() == ReflinkMode.ALWAYS ? 10_000 : 0;
            for (List<PlanEntry> chunk : chunks(o, split)) {
                for (PlanEntry e : chunk) {
                    assertTrue(e.kind() != PlanEntry.RANGE, name(e));
                }
            }
            deleteTree(dir.resolve("plan"));
        }
    }

    private static void deleteTree(Path p) throws Exception {
        try (var s = Files.walk(p)) {
            for (Path x : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(x);
            }
        }
    }
}
