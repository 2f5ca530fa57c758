package dev.cpx.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.testing.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example plugin (examples/cpx-engine-example), installed as docs/writing-an-engine.md says. */
class PluginIT {

    @TempDir
    Path dir;

    @Test
    void aJarCopiedIntoPluginsIsListedAndUsable() throws Exception {
        Path root = Dist.unpackTar(Files.createDirectories(dir.resolve("opt")));
        Path cpx = root.resolve("bin/cpx");
        Dist.Result before = Dist.run(dir, Dist.env(), cpx.toString(), "--list-engines");
        assertTrue(before.out().lines().noneMatch(l -> l.startsWith("throttled ")), "the default plugins/ holds no example:\n" + before);

        Files.copy(Dist.EXAMPLE_PLUGIN, root.resolve("plugins").resolve(Dist.EXAMPLE_PLUGIN.getFileName()));
        Dist.Result list = Dist.run(dir, Dist.env(), cpx.toString(), "--list-engines");
        assertEquals(0, list.exit(), list::toString);
        assertEquals("", list.err());
        String line = list.out().lines().filter(l -> l.startsWith("throttled ")).findFirst().orElse("");
        assertTrue(line.matches("throttled +yes +" + java.util.regex.Pattern.quote(Dist.VERSION)
                + " +read/write loop limited to 10M/s in total \\(CPX_THROTTLE_RATE\\)"), list::toString);

        Path src = Trees.generate(dir.resolve("src"));
        Map<String, String> env = Dist.env();
        env.put("CPX_THROTTLE_RATE", "1G");
        Dist.Result copy = Dist.run(dir, env, cpx.toString(), "--engine=throttled", "-r", "src", "dst");
        assertEquals(0, copy.exit(), copy::toString);
        Trees.assertSameTree(src, dir.resolve("dst"));

        // Found through a symbolic link too: plugins/ is looked up in the installation, not next to the link.
        Path link = Files.createSymbolicLink(dir.resolve("cpx-link"), cpx);
        Dist.Result viaLink = Dist.run(dir, Dist.env(), link.toString(), "--list-engines");
        assertTrue(viaLink.out().lines().anyMatch(l -> l.startsWith("throttled ")), viaLink::toString);
    }

    @Test
    void aPluginElsewhereIsFoundThroughCpxPluginPathOrPluginPath() throws Exception {
        Path root = Dist.unpackTar(Files.createDirectories(dir.resolve("opt")));
        Path cpx = root.resolve("bin/cpx");
        Path mine = Files.createDirectories(dir.resolve("my plugins"));
        Files.copy(Dist.EXAMPLE_PLUGIN, mine.resolve("throttled.jar"));

        Map<String, String> env = Dist.env();
        env.put("CPX_PLUGIN_PATH", "/nonexistent:" + mine);
        Dist.Result viaEnv = Dist.run(dir, env, cpx.toString(), "--list-engines");
        assertTrue(viaEnv.out().lines().anyMatch(l -> l.startsWith("throttled ")), viaEnv::toString);

        Dist.Result viaOption = Dist.run(dir, Dist.env(), cpx.toString(), "--plugin-path=" + mine, "--list-engines");
        assertTrue(viaOption.out().lines().anyMatch(l -> l.startsWith("throttled ")), viaOption::toString);
    }

    @Test
    void aBadRateMakesThePluginUnavailableNotBroken() throws Exception {
        Path root = Dist.unpackTar(Files.createDirectories(dir.resolve("opt")));
        Files.copy(Dist.EXAMPLE_PLUGIN, root.resolve("plugins").resolve("throttled.jar"));
        Map<String, String> env = Dist.env();
        env.put("CPX_THROTTLE_RATE", "fast");
        Dist.Result r = Dist.run(dir, env, root.resolve("bin/cpx").toString(), "--engine=throttled", "a", "b");
        assertEquals(1, r.exit(), r::toString);
        assertEquals(List.of("cpx: engine 'throttled' is not available here: CPX_THROTTLE_RATE: 'fast' is not a rate (examples: 512K, 20M, 1G)",
                "Try 'cpx --help' for more information."), Dist.lines(r.err()));
    }
}
