package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.api.CopyOptions;
import dev.cpx.spi.support.PathBytes;
import dev.cpx.testing.Trees;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --json}: one document on standard output, nothing else there, every failure in it, names exact. */
class JsonTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "engine={0} -j {1}")
    @CsvSource({"native,1", "native,4", "nio,1", "nio,4"})
    void oneDocumentWithTheTreesCounts(String engine, int jobs) throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        TreeFacts.Counts c = TreeFacts.count(src);
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "-j", "" + jobs, "--json", "-r", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        assertEquals("", r.err());
        Map<String, Object> doc = Json.object(r.out());
        assertEquals("completed", doc.get("status"));
        assertEquals(0L, doc.get("exitStatus"));
        assertTrue(doc.containsKey("signal") && doc.get("signal") == null, doc::toString);
        assertEquals(engine, doc.get("engine"));
        assertEquals((long) jobs, doc.get("jobs"));
        assertEquals(c.files(), doc.get("files"));
        assertEquals(c.directories(), doc.get("directories"));
        assertEquals(c.symlinks(), doc.get("symlinks"));
        assertEquals(0L, doc.get("specials"));
        assertEquals(c.bytes(), doc.get("bytes"));
        assertEquals(0L, doc.get("skipped"));
        assertEquals(0L, doc.get("failed"));
        assertInstanceOf(Number.class, doc.get("elapsedSeconds"));
        assertInstanceOf(Long.class, doc.get("bytesPerSecond"));
        assertEquals(List.of(), doc.get("failures"));
        Trees.assertSameTree(src, dir.resolve("dst"));
    }

    /** {@code jobs} is what the run had: one worker per core from tmpfs to tmpfs unless {@code -j} says. */
    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void jobsAreTheWorkersTheRunHad(String engine) throws Exception {
        Path shm = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(shm) && "tmpfs".equals(Files.getFileStore(shm).type()), "/dev/shm is not a tmpfs here");
        Path mem = Files.createTempDirectory(shm, "cpx-json-");
        try {
            Trees.generate(mem.resolve("src"));
            Cli.Result r = Cli.cpx(mem, "--engine=" + engine, "--json", "--no-config", "-r", "src", "dst");
            assertEquals(0, r.exit(), r::toString);
            int cores = Runtime.getRuntime().availableProcessors();
            assertEquals((long) Math.max(1, Math.min(CopyOptions.defaultJobs(), cores)), Json.object(r.out()).get("jobs"));
            Trees.assertSameTree(mem.resolve("src"), mem.resolve("dst"));
            Cli.Result given = Cli.cpx(mem, "--engine=" + engine, "--json", "--no-config", "-j", "3", "-r", "src", "dst3");
            assertEquals(0, given.exit(), given::toString);
            assertEquals(3L, Json.object(given.out()).get("jobs"));
        } finally {
            try (var all = Files.walk(mem)) {
                for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void failuresCarryReasonsAndExactNamesEvenWhenNotUtf8(String engine) throws Exception {
        Path src = Files.createDirectory(dir.resolve("src"));
        byte[] odd = {'b', 'a', 'd', (byte) 0xff, 'n'};
        String[] names = {"plain", "new\nline \"quoted\" \\", "é ☃"};
        Path dst = Files.createDirectory(dir.resolve("dst"));
        Files.write(Trees.child(src, odd), new byte[] {1});
        Files.createDirectory(Trees.child(dst, odd));
        for (String n : names) {
            Files.writeString(src.resolve(n), n);
            Files.createDirectory(dst.resolve(n));
        }
        Files.writeString(src.resolve("fine"), "ok");
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "--json", "-rT", "src", "dst");
        assertEquals(1, r.exit(), r::toString);
        Map<String, Object> doc = Json.object(r.out());
        assertEquals("failed", doc.get("status"));
        assertEquals(1L, doc.get("exitStatus"));
        assertEquals(4L, doc.get("failed"));
        assertEquals(1L, doc.get("files"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> failures = (List<Map<String, Object>>) doc.get("failures");
        assertEquals(4, failures.size());
        // The same failures as the lines on standard error, in the same order.
        assertEquals(TreeFacts.lines(r.err()), failures.stream().map(f -> "cpx: " + f.get("message")).toList());
        Map<String, Map<String, Object>> bySource = new HashMap<>();
        for (Map<String, Object> f : failures) {
            assertEquals("file", f.get("kind"));
            assertEquals("", f.get("reason"));
            bySource.put((String) f.get("source"), f);
        }
        for (String n : names) {
            Map<String, Object> f = bySource.get("src/" + n);
            assertEquals("dst/" + n, f.get("target"), f::toString);
            assertFalse(f.containsKey("sourceBase64"), "valid UTF-8 needs no bytes");
        }
        Map<String, Object> bad = bySource.get("src/bad\ufffdn");
        assertArrayEquals(PathBytes.of(Trees.child(dir.getFileSystem().getPath("src"), odd)),
                Base64.getDecoder().decode((String) bad.get("sourceBase64")));
        assertArrayEquals(PathBytes.of(Trees.child(dir.getFileSystem().getPath("dst"), odd)),
                Base64.getDecoder().decode((String) bad.get("targetBase64")));
        assertEquals("cannot overwrite directory 'dst/bad'$'\\377''n' with non-directory", bad.get("message"));
    }

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    void verboseLinesMoveToStandardError(String engine) throws Exception {
        Trees.generate(dir.resolve("src"));
        Cli.Result plain = Cli.cpx(dir, "--engine=" + engine, "-rv", "src", "plain");
        Cli.Result r = Cli.cpx(dir, "--engine=" + engine, "--json", "-rv", "src", "dst");
        assertEquals(0, r.exit(), r::toString);
        assertEquals("completed", Json.object(r.out()).get("status"));
        assertEquals(plain.out().replace(" -> 'plain", " -> 'dst").replace(" -> \"plain", " -> \"dst").lines().sorted().toList(),
                r.err().lines().sorted().toList());
    }

    @Test
    void onATerminalTheJsonReplacesTheSummaryUnlessItIsAskedFor() throws Exception {
        Files.writeString(dir.resolve("a"), "x");
        List<String> tty = List.of("-Dcpx.stderr.tty=true", "-Dcpx.stdout.tty=true");
        Cli.Result r = Running.run(dir, tty, Map.of(), false, "--json", "a", "b");
        assertEquals(0, r.exit(), r::toString);
        assertEquals("", r.err());
        assertEquals(1L, Json.object(r.out()).get("files"));
        Cli.Result both = Running.run(dir, tty, Map.of(), false, "--json", "--summary", "a", "c");
        assertTrue(both.err().startsWith("cpx: copied 1 file (1 B)"), both::toString);
        assertEquals(1L, Json.object(both.out()).get("files"));
    }

    @Test
    void stringsAreEscapedAsJsonRequires() {
        assertEquals("\"a\\\"b\\\\c\\nd\\te\\u0001\\u007f é ☃ \ud83d\ude00 \ufffd\"",
                JsonReport.string("a\"b\\c\nd\te\u0001\u007f é ☃ \ud83d\ude00 \udcff"));
        assertEquals("a\"b\\c\nd\te\u0001\u007f é", Json.parse(JsonReport.string("a\"b\\c\nd\te\u0001\u007f é")));
        assertEquals("x", new String(Base64.getDecoder().decode("eA=="), StandardCharsets.US_ASCII));
    }
}
