package dev.cpx.core.walk;

import dev.cpx.core.fs.Stat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Source files that share an inode ({@code --preserve=links}, {@code -a}): the first one met is
 * copied, every other one becomes a hard link to that copy. A later name may be met while the first
 * copy is still being written; it then waits (without holding a thread) and is linked once the copy
 * exists under its final name, so no link is ever made to a file that is not there yet.
 */
final class HardLinks {

    private record Key(long dev, long ino) {
    }

    /** One shared inode: its first copy and the names waiting for it. */
    static final class Group {
        private Path copy;
        private boolean done;
        private List<Consumer<Path>> waiting = new ArrayList<>();

        /** Records the outcome of the first copy ({@code copy} null when it failed) and releases the waiters. */
        void finish(Path copy) {
            List<Consumer<Path>> released;
            synchronized (this) {
                this.copy = copy;
                this.done = true;
                released = waiting;
                waiting = null;
            }
            for (Consumer<Path> w : released) {
                w.accept(copy);
            }
        }
    }

    private final ConcurrentHashMap<Key, Group> groups = new ConcurrentHashMap<>();

    /**
     * Claims the inode of {@code st}. Returns a new group when the caller is the first name (it must
     * copy and then call {@link Group#finish}); otherwise null, after arranging for {@code whenCopied}
     * to receive the first copy's path (null if that copy failed) — at once if it is done.
     */
    Group claim(Stat st, Consumer<Path> whenCopied) {
        Group mine = new Group();
        Group existing = groups.putIfAbsent(new Key(st.dev(), st.ino()), mine);
        if (existing == null) {
            return mine;
        }
        Path ready;
        synchronized (existing) {
            if (!existing.done) {
                existing.waiting.add(whenCopied);
                return null;
            }
            ready = existing.copy;
        }
        whenCopied.accept(ready);
        return null;
    }
}
