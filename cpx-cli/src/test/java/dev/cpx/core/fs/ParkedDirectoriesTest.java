package dev.cpx.core.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.api.EngineRegistry;
import dev.cpx.spi.Descriptors;
import dev.cpx.spi.DirectoryEntries;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory pair parked (its descriptors closed while it waits, where the descriptor limit leaves
 * no room for a descriptor a level) opens again as the same directories, from the nearest open pair
 * above or through a subdirectory's {@code ..}, or not at all: a directory moved, replaced or swapped for a symbolic link meanwhile is lost,
 * and nothing is reached through it again. Real directories, the descriptors of the engine found.
 */
class ParkedDirectoriesTest {

    @TempDir
    Path dir;
    private Anchors anchors;
    private Descriptors descriptors;
    private DirectoryPair root;
    private DirectoryPair b;

    @BeforeEach
    void chain() throws IOException {
        descriptors = EngineRegistry.discoverExtras().descriptors().orElseThrow();
        anchors = Anchors.of(descriptors);
        assertTrue(anchors.active(), "descriptors open relative");
        Files.createDirectories(dir.resolve("src/b/c"));
        Files.write(dir.resolve("src/b/c/f"), new byte[] {1});
        Files.createDirectories(dir.resolve("dst/b/c"));
        root = open("src", "dst");
        b = open("src/b", "dst/b");
    }

    private DirectoryPair open(String source, String target) throws IOException {
        DirectoryPair pair = anchors.open(dir.resolve(source), dir.resolve(target), false, false);
        anchors.hold(dir.resolve(source), dir.resolve(target), pair);
        return pair;
    }

    private Set<String> names(DirectoryPair pair) throws IOException {
        DirectoryEntries list = new DirectoryEntries();
        descriptors.readDirectory(pair.source(), list);
        Set<String> names = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            names.add(new String(list.name(i), java.nio.charset.StandardCharsets.UTF_8));
        }
        return names;
    }

    /** The source's entries, the pair retained for it (opened again where parked), then released. */
    private Set<String> namesOpened(DirectoryPair pair) throws IOException {
        assertTrue(pair.tryRetain());
        try {
            return names(pair);
        } finally {
            pair.release();
        }
    }

    @Test
    void aParkedPairOpensAgainAsTheSameDirectories() throws IOException {
        b.park();
        assertTrue(b.tryRetain());
        try {
            assertEquals(Set.of("c"), names(b));
            descriptors.makeDirectory(b.target(), "made".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0755);
        } finally {
            b.release();
        }
        assertTrue(Files.isDirectory(dir.resolve("dst/b/made")), "made in the copy it was");
        anchors.drop(dir.resolve("src/b"), dir.resolve("dst/b"), b);
    }

    @Test
    void aPairBelowParkedOnesOpensFromTheNearestOpenOne() throws IOException {
        DirectoryPair c = open("src/b/c", "dst/b/c");
        c.park();
        b.park();
        assertEquals(Set.of("f"), namesOpened(c));
        // b is opened again in its turn, as it was.
        assertTrue(b.tryRetain());
        b.release();
    }

    @Test
    void aPairThatIsNotParkedIsLeftAsItIs() throws IOException {
        assertTrue(b.tryRetain());
        b.park();
        try {
            // In use: not parked, its descriptors still the ones it had.
            assertEquals(Set.of("c"), names(b));
        } finally {
            b.release();
        }
    }

    @Test
    void aSourceReplacedWhileParkedIsLost() throws IOException {
        b.park();
        Files.move(dir.resolve("src/b"), dir.resolve("src/old"));
        Files.createDirectories(dir.resolve("src/b/c"));
        assertThrows(java.nio.file.NoSuchFileException.class, b::tryRetain);
        assertTrue(b.lostSource());
        // And from then on: never another way to what was below it.
        assertThrows(java.nio.file.NoSuchFileException.class, b::tryRetain);
        assertThrows(IOException.class, () -> anchors.stat(dir.resolve("src/b/c"), false));
        anchors.drop(dir.resolve("src/b"), dir.resolve("dst/b"), b);
    }

    @Test
    void aCopySwappedForASymbolicLinkWhileParkedIsLost() throws IOException {
        b.park();
        Files.move(dir.resolve("dst/b"), dir.resolve("dst/old"));
        Files.createSymbolicLink(dir.resolve("dst/b"), Path.of("old"));
        IOException e = assertThrows(IOException.class, b::tryRetain);
        assertFalse(b.lostSource(), e::toString);
        assertThrows(IOException.class, () -> anchors.lstatIfThere(dir.resolve("dst/b/c")));
    }

    @Test
    void aSourceRenamedWhileParkedIsLost() throws IOException {
        DirectoryPair c = open("src/b/c", "dst/b/c");
        c.park();
        b.park();
        Files.move(dir.resolve("src/b"), dir.resolve("src/moved"));
        assertThrows(java.nio.file.NoSuchFileException.class, c::tryRetain);
        assertTrue(c.lostSource());
    }

    @Test
    void aParentParkedOpensAgainThroughItsChildsDotDot() throws IOException {
        DirectoryPair c = open("src/b/c", "dst/b/c");
        b.park();
        // Renamed: the way down by names no longer leads to it, its child's ".." still does.
        Files.move(dir.resolve("src/b"), dir.resolve("src/x"));
        Files.move(dir.resolve("dst/b"), dir.resolve("dst/x"));
        b.unparkThrough(c);
        assertEquals(Set.of("c"), namesOpened(b));
    }

    @Test
    void aChildMovedElsewhereDoesNotLeadToItsParent() throws IOException {
        DirectoryPair c = open("src/b/c", "dst/b/c");
        b.park();
        Files.createDirectories(dir.resolve("src/other"));
        Files.move(dir.resolve("src/b/c"), dir.resolve("src/other/c"));
        // The child's ".." is another directory now: left parked, and opened by its name, which still leads to it.
        b.unparkThrough(c);
        assertEquals(Set.of(), namesOpened(b));
    }
}
