package dev.cpx.engine.natives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Native;
import dev.cpx.spi.CopyEngine;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** availability() says why not, and never throws, where the engine cannot run: checked in child JVMs. */
class AvailabilityTest {

    private static final String OPENS = "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED";
    private static final String OPENS_IO = "--add-opens=java.base/java.io=ALL-UNNAMED";

    @Test
    void availableHere() {
        assertTrue(new NativeEngine().availability().available(), new NativeEngine().availability().reason());
        assertTrue(new NativeExtras().availability().available(), new NativeExtras().availability().reason());
    }

    @Test
    void withAllItNeedsItIsAvailable() throws Exception {
        String out = probe(classPath(true), OPENS, OPENS_IO);
        assertTrue(out.contains("engine Availability[available=true, reason=]"), out);
        assertTrue(out.contains("extras Availability[available=true, reason=]"), out);
    }

    @Test
    void withoutTheOpensTheEngineReadsTheFieldsBeforeJdk24() throws Exception {
        String out = probe(classPath(true));
        if (Runtime.version().feature() < 24) {
            assertTrue(out.contains("engine Availability[available=true, reason=]"), out);
        } else {
            assertTrue(out.contains("engine Availability[available=false, reason=file descriptors not accessible"), out);
        }
        assertTrue(out.contains("extras Availability[available=true"), out);
    }

    @Test
    void withNeitherTheOpensNorTheFieldsTheEngineSaysWhichFlagsItNeeds() throws Exception {
        String out = probe(classPath(true), "-Dcpx.privateFields=false");
        assertTrue(out.contains("engine Availability[available=false, reason=file descriptors not accessible"), out);
        assertTrue(out.contains("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"), out);
        assertTrue(out.contains("extras Availability[available=true"), "the extras need no descriptors: " + out);
    }

    @Test
    void withoutJnaBothSayJnaIsMissing() throws Exception {
        String out = probe(classPath(false), OPENS, OPENS_IO);
        assertTrue(out.contains("engine Availability[available=false, reason=JNA not on the class path"), out);
        assertTrue(out.contains("extras Availability[available=false, reason=JNA not on the class path"), out);
    }

    @Test
    void offLinuxBothSaySo() throws Exception {
        String out = probe(classPath(true), OPENS, OPENS_IO, "-Dos.name=FreeBSD");
        assertTrue(out.contains("engine Availability[available=false, reason=Linux only (this is FreeBSD)]"), out);
        assertTrue(out.contains("extras Availability[available=false, reason=Linux only (this is FreeBSD)]"), out);
    }

    /** This module's classes, the test classes, cpx-api, and JNA if asked. */
    private static String classPath(boolean withJna) throws URISyntaxException {
        List<String> entries = new ArrayList<>();
        entries.add(location(NativeEngine.class));
        entries.add(location(AvailabilityProbe.class));
        entries.add(location(CopyEngine.class));
        if (withJna) {
            entries.add(location(Native.class));
        }
        return String.join(File.pathSeparator, entries);
    }

    private static String location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    private static String probe(String classPath, String... jvmOptions) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(List.of(jvmOptions));
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-cp");
        command.add(classPath);
        command.add(AvailabilityProbe.class.getName());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe finished");
        assertEquals(0, p.exitValue(), out);
        return out;
    }
}
