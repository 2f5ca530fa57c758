package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import java.nio.file.Path;
import java.util.Map;

/**
 * The whole source as it was before a fault test: every entry's type, content hash, mode, owner,
 * modification time and links. {@link #assertUnchanged()} proves the copy never wrote to it.
 */
final class SourceGuard {

    private final Path root;
    private final Map<String, String> before;

    private SourceGuard(Path root) {
        this.root = root;
        this.before = Trees.describe(root, Detail.MODE, Detail.MTIME, Detail.OWNER, Detail.LINKS);
    }

    static SourceGuard of(Path root) {
        return new SourceGuard(root);
    }

    void assertUnchanged() {
        assertEquals(before, Trees.describe(root, Detail.MODE, Detail.MTIME, Detail.OWNER, Detail.LINKS),
                "the source was changed");
    }
}
