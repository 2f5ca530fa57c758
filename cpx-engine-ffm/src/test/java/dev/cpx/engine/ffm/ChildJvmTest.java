package dev.cpx.engine.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The availability decided in a JVM of its own, as cpx starts: on JDK 17 to 21 no class of
 * {@code java.lang.foreign} and none of this module's bindings is ever loaded, and auto falls back
 * to the native engine; on JDK 22 and later without native access enabled the engine says so
 * instead of making the JDK print its warning, with it auto stays native unless {@code -Dcpx.ffm=prefer}.
 */
class ChildJvmTest {

    @Test
    void beforeJdk22NothingOfTheBindingIsLoadedAndAutoIsNative() throws Exception {
        Assumptions.assumeTrue(Runtime.version().feature() < FfmSupport.FIRST_JDK, "this JVM is JDK 22 or later");
        Result r = probe("-Xlog:class+load=info");
        assertTrue(r.out.contains("engine Availability[available=false, reason=needs JDK 22 or later"), r.out);
        assertTrue(r.out.contains("auto native"), r.out);
        assertTrue(r.out.contains("found extras NativeExtras"), r.out);
        assertTrue(r.out.contains("dev.cpx.engine.ffm.FfmSupport"), "the class loading is logged: " + r.out);
        for (String never : List.of("java.lang.foreign.", "jdk.internal.foreign.", "dev.cpx.engine.ffm.Linking",
                "dev.cpx.engine.ffm.LibC", "dev.cpx.engine.ffm.Scratch")) {
            assertFalse(r.out.contains(never), never + " was loaded");
        }
    }

    @Test
    void fromJdk22WithoutNativeAccessItSaysSoAndPrintsNoWarning() throws Exception {
        Assumptions.assumeTrue(Runtime.version().feature() >= FfmSupport.FIRST_JDK, "java.lang.foreign is final from JDK 22 on");
        Result r = probe("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED");
        assertTrue(r.out.contains("engine Availability[available=false, reason=native access is not enabled "
                + "(start the JVM with --enable-native-access=ALL-UNNAMED)]"), r.out);
        assertTrue(r.out.contains("auto native"), r.out);
        // JNA's System.load draws the JDK's warning here (the native engine is what auto falls back to); nothing of ours does.
        assertFalse(r.err.contains("java.lang.foreign") || r.err.contains("dev.cpx.engine.ffm"), r.err);
        Result enabled = probe("--enable-native-access=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-opens=java.base/java.io=ALL-UNNAMED");
        assertTrue(enabled.out.contains("engine Availability[available=true, reason=]"), enabled.out);
        assertTrue(enabled.out.contains("auto native"), "not preferred by default: " + enabled.out);
        assertTrue(enabled.out.contains("found extras NativeExtras"), enabled.out);
        assertFalse(enabled.err.contains("WARNING"), enabled.err);
        Result preferred = probe("-Dcpx.ffm=prefer", "--enable-native-access=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-opens=java.base/java.io=ALL-UNNAMED");
        assertTrue(preferred.out.contains("auto ffm"), preferred.out);
        assertTrue(preferred.out.contains("found extras FfmExtras"), preferred.out);
        assertFalse(preferred.err.contains("WARNING"), preferred.err);
        Result off = probe("-Dcpx.ffm=false", "--enable-native-access=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-opens=java.base/java.io=ALL-UNNAMED");
        assertTrue(off.out.contains("engine Availability[available=false, reason=turned off (-Dcpx.ffm=false)]"), off.out);
        assertTrue(off.out.contains("auto native"), off.out);
        assertTrue(off.out.contains("found extras NativeExtras"), off.out);
    }

    @Test
    void fromJdk22WithoutJnaAutoAndTheExtrasAreTheseInsteadOfNio() throws Exception {
        Assumptions.assumeTrue(Runtime.version().feature() >= FfmSupport.FIRST_JDK, "java.lang.foreign is final from JDK 22 on");
        List<String> entries = new ArrayList<>();
        for (Class<?> c : List.of(FfmEngine.class, AvailabilityProbe.class, dev.cpx.spi.CopyEngine.class,
                dev.cpx.engine.natives.NativeEngine.class)) {
            entries.add(java.nio.file.Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        }
        Result r = probeWith(String.join(File.pathSeparator, entries), "--enable-native-access=ALL-UNNAMED",
                "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED");
        assertTrue(r.out.contains("auto ffm"), "JNA is not on this class path: " + r.out);
        assertTrue(r.out.contains("found extras FfmExtras"), r.out);
    }

    private record Result(String out, String err) {
    }

    private static Result probe(String... jvmOptions) throws IOException, InterruptedException {
        return probeWith(System.getProperty("java.class.path"), jvmOptions);
    }

    private static Result probeWith(String classPath, String... jvmOptions) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(List.of(jvmOptions));
        command.add("-cp");
        command.add(classPath);
        command.add(AvailabilityProbe.class.getName());
        File err = File.createTempFile("cpx-probe", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectError(err).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe finished");
            String errText = java.nio.file.Files.readString(err.toPath());
            assertEquals(0, p.exitValue(), out + errText);
            return new Result(out, errText);
        } finally {
            err.delete();
        }
    }
}
