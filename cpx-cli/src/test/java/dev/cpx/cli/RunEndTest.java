package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cpx.api.CopyOptions;
import dev.cpx.api.Cpx;
import dev.cpx.api.EngineRegistry;
import dev.cpx.spi.Descriptors;
import dev.cpx.spi.PosixExtras;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A run whose own end fails still ends: its caller is let go and told why. Under a low descriptor
 * limit a class the end needs could not be loaded (JDK 25, a class path of directories, {@code ulimit
 * -n 22}: its summary's), the end threw before it let the waiting thread go, and cpx never exited.
 * Here the native support's descriptors, real in every other call, fail the run's last one (the
 * closes it put off) with the error such a class would raise; the files are copied by the engine.
 */
class RunEndTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"native", "nio"})
    @Timeout(60)
    void aRunWhoseEndFailsEndsAndSaysWhy(String engine) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.write(src.resolve("f"), new byte[] {1, 2, 3});
        PosixExtras extras = failingAtTheEnd(EngineRegistry.discoverExtras());
        EngineRegistry discovered = EngineRegistry.discover();
        Cpx cpx = Cpx.create(EngineRegistry.of(List.of(discovered.select(engine)), extras));
        CopyOptions options = CopyOptions.builder().recursive(true).engine(engine).build();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> cpx.copy(List.of(src), dir.resolve("copy"), options));
        assertEquals("the copy could not finish: cannot load dev/cpx/Missing", e.getMessage());
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(dir.resolve("copy/f")));
    }

    /** {@code real}, whose descriptors' {@code closePutOff} throws what a class that cannot be loaded throws. */
    private static PosixExtras failingAtTheEnd(PosixExtras real) {
        Descriptors descriptors = real.descriptors().orElseThrow();
        Descriptors failing = (Descriptors) Proxy.newProxyInstance(RunEndTest.class.getClassLoader(),
                new Class<?>[] {Descriptors.class}, (proxy, method, args) -> {
                    if (method.getName().equals("closePutOff")) {
                        descriptors.closePutOff();
                        throw new NoClassDefFoundError("dev/cpx/Missing");
                    }
                    return call(method, descriptors, args);
                });
        return (PosixExtras) Proxy.newProxyInstance(RunEndTest.class.getClassLoader(),
                new Class<?>[] {PosixExtras.class}, (proxy, method, args) ->
                        method.getName().equals("descriptors") ? Optional.of(failing) : call(method, real, args));
    }

    private static Object call(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
