package dev.cpx.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.EngineRegistry;
import dev.cpx.spi.PosixExtras;
import dev.cpx.testing.Trees;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan's two walks, one directory at a time by path (without descriptors, and for {@code -L})
 * and in parallel relative to open descriptors, write the same plan of a real tree: the same
 * entries, the same hard-link groups, the same directories, every directory after all of its
 * subdirectories (finish sets attributes bottom-up).
 */
class PlannerWalkTest {

    @TempDir
    Path dir;

    static PosixExtras descriptorExtras() {
        PosixExtras extras = EngineRegistry.discoverExtras();
        assertNotNull(extras, "native support is on the test class path");
        assertTrue(extras.descriptors().map(d -> d.opensRelative()).orElse(false), "its descriptors open relative");
        return extras;
    }

    /** A plan as data: entries by name, link groups as sets of names, directories in their order. */
    record Read(Map<String, String> entries, Set<Set<String>> groups, List<String> dirs) {
    }

    private Path tree() throws IOException {
        Path src = Trees.generate(dir.resolve("src"));
        Files.createLink(src.resolve("a/hard1"), src.resolve("many/d0/f0"));
        Files.createLink(src.resolve("hard2"), src.resolve("many/d0/f0"));
        for (int i = 0; i < 400; i++) {
            Path d = Files.createDirectories(src.resolve("spread/s" + (i % 23) + "/t" + (i % 7)));
            Files.write(d.resolve("f" + i), Trees.randomBytes(i % 3000, i));
        }
        Files.createDirectories(src.resolve("spread/empty/deeper/deepest"));
        Files.write(Trees.child(src, new byte[] {'b', 'a', 'd', (byte) 0xff, '-', (byte) 0xc3}), new byte[] {1});
        return src;
    }

    private Read plan(Path src, CopyOptions options, PosixExtras extras, String name) throws IOException {
        Path planDir = dir.resolve(name);
        new Planner(List.of(src), dir.resolve("dst-" + name), options, 7, 60_000, 0, extras).write(planDir);
        Map<String, String> entries = new TreeMap<>();
        Map<Long, Set<String>> groups = new HashMap<>();
        for (Path chunk : Files.list(planDir.resolve(PlanDirectory.TODO)).sorted().toList()) {
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(chunk)))) {
                for (PlanEntry e = PlanEntry.read(in); e != null; e = PlanEntry.read(in)) {
                    String key = e.operand() + ":" + HexFormat.of().formatHex(e.name());
                    assertEquals(null, entries.put(key, e.kind() + "/" + e.size()), "listed once: " + key);
                    if (e.linkGroup() != 0) {
                        groups.computeIfAbsent(e.linkGroup(), k -> new TreeSet<>()).add(key);
                    }
                }
            }
        }
        List<String> dirs = new ArrayList<>();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(planDir.resolve(PlanDirectory.DIRS))))) {
            for (PlanDirectory.Dir d = PlanDirectory.readDir(in); d != null; d = PlanDirectory.readDir(in)) {
                dirs.add(d.operand() + ":" + new String(d.name(), java.nio.charset.StandardCharsets.ISO_8859_1) + ":" + d.existed());
            }
        }
        return new Read(entries, new HashSet<>(groups.values()), dirs);
    }

    /** No directory is listed before one below it. */
    private static void assertChildrenFirst(List<String> dirs) {
        for (int i = 0; i < dirs.size(); i++) {
            String name = dirs.get(i).substring(0, dirs.get(i).lastIndexOf(':'));
            String below = name.endsWith(":") ? name : name + "/";
            for (int j = i + 1; j < dirs.size(); j++) {
                if (dirs.get(j).startsWith(below)) {
                    throw new AssertionError(name + " is listed before its subdirectory " + dirs.get(j) + ": " + dirs);
                }
            }
        }
    }

    @Test
    void bothWalksPlanTheSameEntriesAndDirectoriesChildrenFirst() throws IOException {
        Path src = tree();
        CopyOptions options = CopyOptions.builder().recursive(true).preserve(Attribute.LINKS, Attribute.MODE).build();
        Read byPath = plan(src, options, PosixExtras.none(), "by-path");
        Read byDescriptor = plan(src, options, descriptorExtras(), "by-descriptor");
        assertTrue(byPath.entries().size() > 400, "the tree's files are planned: " + byPath.entries().size());
        assertEquals(byPath.entries(), byDescriptor.entries());
        assertEquals(byPath.groups(), byDescriptor.groups());
        assertEquals(1, byDescriptor.groups().size(), "one inode with three names: " + byDescriptor.groups());
        assertEquals(3, byDescriptor.groups().iterator().next().size());
        assertEquals(new TreeSet<>(byPath.dirs()), new TreeSet<>(byDescriptor.dirs()));
        assertEquals(byPath.dirs().size(), byDescriptor.dirs().size());
        assertChildrenFirst(byPath.dirs());
        assertChildrenFirst(byDescriptor.dirs());
    }

    @Test
    void bothWalksApplyExcludesAndSeeWhatExistsAtTheDestination() throws IOException {
        Path src = tree();
        Files.createDirectories(dir.resolve("dst-by-path/src/spread/s1"));
        Files.createDirectories(dir.resolve("dst-by-descriptor/src/spread/s1"));
        CopyOptions options = CopyOptions.builder().recursive(true).excludes(List.of("t3", "*.bin", "spread/s2"))
                .build();
        Read byPath = plan(src, options, PosixExtras.none(), "by-path");
        Read byDescriptor = plan(src, options, descriptorExtras(), "by-descriptor");
        assertEquals(byPath.entries(), byDescriptor.entries());
        assertEquals(new TreeSet<>(byPath.dirs()), new TreeSet<>(byDescriptor.dirs()));
        assertTrue(byDescriptor.dirs().contains("0:spread/s1:true"), "an existing destination directory: " + byDescriptor.dirs());
        assertTrue(byDescriptor.dirs().contains("0:spread/s4:false"));
        assertFalse(byDescriptor.dirs().stream().anyMatch(d -> d.contains("/t3:") || d.startsWith("0:spread/s2:")),
                "excluded directories: " + byDescriptor.dirs());
        assertFalse(byDescriptor.entries().keySet().stream().anyMatch(k -> k.endsWith(HexFormat.of().formatHex(".bin".getBytes()))));
    }
}
