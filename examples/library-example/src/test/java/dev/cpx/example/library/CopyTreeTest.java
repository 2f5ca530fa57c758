package dev.cpx.example.library;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.api.CopySummary;
import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example does what docs/library.md says: copies a real tree, and runs as a program. */
class CopyTreeTest {

    @TempDir
    Path dir;

    @Test
    void copiesATreeWithModesAndTimes() throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Path dst = dir.resolve("dst");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CopySummary s = CopyTree.copy(src, dst, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertTrue(s.succeeded(), err.toString(StandardCharsets.UTF_8));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
        Trees.assertSameTree(src, dst, Detail.MODE, Detail.MTIME);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains(s.files() + " files, "), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void runsAsAProgramAndFailsLikeOne() throws Exception {
        Path src = Trees.generate(dir.resolve("src"));
        Result ok = run(src.toString(), dir.resolve("copy").toString());
        assertEquals(0, ok.exit, ok.err);
        Trees.assertSameTree(src, dir.resolve("copy"), Detail.MODE, Detail.MTIME);

        Result missing = run(dir.resolve("missing").toString(), dir.resolve("copy2").toString());
        assertEquals(1, missing.exit);
        assertTrue(missing.err.startsWith("copy-tree: cannot stat '"), missing.err);

        Result usage = run("only-one");
        assertEquals(2, usage.exit);
        assertEquals("usage: CopyTree SOURCE DEST\n", usage.err);
    }

    private record Result(int exit, String out, String err) {
    }

    /** Runs the example's main in its own JVM, with the flags docs/library.md tells library users to give. */
    private Result run(String... args) throws Exception {
        // The flags are the parent pom's cpx.jvm.opens (the one list), given to this test by surefire
        // on JDK 24 and later; none on JDK 17 to 23, where the library needs none.
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java")));
        String flags = System.getProperty("cpx.jvm.opens", "").trim();
        if (!flags.isEmpty()) {
            cmd.addAll(List.of(flags.split("\\s+")));
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), CopyTree.class.getName()));
        cmd.addAll(List.of(args));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out");
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
