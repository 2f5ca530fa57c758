package dev.cpx.engine.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.api.CopyOptions;
import dev.cpx.api.Cpx;
import dev.cpx.api.EngineRegistry;
import dev.cpx.engine.natives.NativeExtras;
import dev.cpx.spi.CopyEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the engine can run and where it cannot: unavailable on JDK 17 to 21, saying why, with
 * {@code auto} and the extras the native (JNA) ones and copies working; available on JDK 22 and
 * later, where {@code auto} and the extras lookup choose it with {@code -Dcpx.ffm=prefer}.
 */
class AvailabilityTest {

    @TempDir
    Path dir;

    private static boolean jdk22() {
        return Runtime.version().feature() >= 22;
    }

    @Test
    void availableExactlyFromJdk22() {
        FfmEngine engine = new FfmEngine();
        FfmExtras extras = new FfmExtras();
        if (jdk22()) {
            assertTrue(engine.availability().available(), engine.availability().reason());
            assertTrue(extras.availability().available(), extras.availability().reason());
        } else {
            String reason = "needs JDK 22 or later (java.lang.foreign); this is JDK " + Runtime.version().feature();
            assertEquals(reason, engine.availability().reason());
            assertEquals(reason, extras.availability().reason());
        }
    }

    @Test
    void theProvidersAreFoundByTheServiceLoader() {
        assertTrue(ServiceLoader.load(CopyEngine.class).stream().anyMatch(p -> p.type() == FfmEngine.class));
        assertTrue(EngineRegistry.discover().engines().stream().anyMatch(e -> e.id().equals("ffm")));
    }

    /** The JDK 22+ run sets -Dcpx.ffm=prefer; without it (ChildJvmTest) auto stays native there too. */
    @Test
    void autoAndTheExtrasChooseItWhenPreferredFromJdk22AndTheNativeOnesOtherwise() throws Exception {
        EngineRegistry registry = EngineRegistry.discover();
        boolean chosen = jdk22() && FfmSupport.preferred();
        assertEquals(chosen ? "ffm" : "native", registry.select(CopyOptions.AUTO_ENGINE).id());
        if (chosen) {
            assertInstanceOf(FfmExtras.class, EngineRegistry.discoverExtras());
            assertInstanceOf(FfmExtras.class, registry.extras().orElseThrow());
        } else {
            assertInstanceOf(NativeExtras.class, EngineRegistry.discoverExtras());
            assertEquals(java.util.List.of(), registry.problems());
        }
    }

    @Test
    void onEveryJdkACopyWithAutoWorks() throws Exception {
        Path src = Files.createDirectories(dir.resolve("src/sub"));
        Files.writeString(src.resolve("a"), "alpha");
        Files.write(dir.resolve("src/b"), new byte[300_000]);
        Cpx cpx = Cpx.create(EngineRegistry.discover());
        var result = cpx.copy(java.util.List.of(dir.resolve("src")), dir.resolve("dst"),
                CopyOptions.builder().recursive(true).engine(CopyOptions.AUTO_ENGINE).build());
        assertTrue(result.succeeded(), result.toString());
        assertEquals("alpha", Files.readString(dir.resolve("dst/sub/a")));
        assertEquals(300_000, Files.size(dir.resolve("dst/b")));
    }

    /**
     * On JDK 17 to 21 the contract tests are skipped here; they must run in the JDK 22+ execution.
     * Without such a JDK on this machine, this says so as a skip (never a silent pass).
     */
    @Test
    void aJdk22RunExists() {
        Assumptions.assumeFalse(jdk22(), "this is the JDK 22+ run");
        Path java = Path.of(System.getProperty("cpx.test.jdk22", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "java");
        Assumptions.assumeTrue(Files.isExecutable(java), "no JDK 22 or later at " + java + ": the FFM engine's contract tests "
                + "did not run on this machine (give one with -Dcpx.test.jdk22=/path/to/jdk)");
        assertTrue(Files.isExecutable(java), "the profile ffm-tests runs the tests again on " + java);
    }
}
