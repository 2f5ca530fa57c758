package dev.cpx.core.decide;

import dev.cpx.api.Diagnostic;
import dev.cpx.core.fs.Stat;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.Map;

/**
 * A directory of named entries held in memory, for the rules' table tests: regular files, symlinks
 * (by the name they point to) and hard links (names sharing an inode), with the {@link
 * DestinationCheck.Probe} answers a real directory would give. All names are in one directory.
 */
final class Scene {

    private static final FileTime T0 = FileTime.fromMillis(1_000_000L);

    private record Node(Stat stat, String target) {
    }

    private final Map<String, Node> nodes = new HashMap<>();
    private long nextInode = 100;

    /** A regular file. */
    Scene file(String name) {
        return file(name, T0);
    }

    Scene file(String name, FileTime mtime) {
        nodes.put(name, new Node(stat(Stat.S_IFREG | 0644, nextInode++, mtime), null));
        return this;
    }

    /** A directory. */
    Scene dir(String name) {
        nodes.put(name, new Node(stat(Stat.S_IFDIR | 0755, nextInode++, T0), null));
        return this;
    }

    /** A symlink to {@code target} (which may not exist). */
    Scene symlink(String name, String target) {
        nodes.put(name, new Node(stat(Stat.S_IFLNK | 0777, nextInode++, T0), target));
        return this;
    }

    /** Another name of {@code existing} (a hard link; of a symlink too). */
    Scene link(String name, String existing) {
        Node n = nodes.get(existing);
        nodes.put(name, n);
        // Every name of the inode counts its links.
        long count = nodes.values().stream().filter(x -> x.stat().ino() == n.stat().ino()).count();
        nodes.replaceAll((k, v) -> v.stat().ino() == n.stat().ino() ? new Node(withLinks(v.stat(), count), v.target()) : v);
        return this;
    }

    private static Stat withLinks(Stat s, long nlink) {
        return new Stat(s.mode(), s.size(), s.dev(), s.ino(), nlink, s.uid(), s.gid(), s.rdev(), s.atime(), s.mtime(), s.ctime());
    }

    private static Stat stat(int mode, long ino, FileTime mtime) {
        return new Stat(mode, 4, 1, ino, 1, 0, 0, 0, T0, mtime, T0);
    }

    /** {@code lstat}; null when absent. */
    Stat lstat(String name) {
        Node n = nodes.get(name);
        return n == null ? null : n.stat();
    }

    /** {@code stat}, following symlinks; null when absent or dangling (or looping). */
    Stat stat(String name) {
        String at = name;
        for (int hops = 0; hops < 40; hops++) {
            Node n = nodes.get(at);
            if (n == null) {
                return null;
            }
            if (!n.stat().isSymlink()) {
                return n.stat();
            }
            at = n.target();
        }
        return null;
    }

    /** Whether following {@code name} loops. */
    boolean loops(String name) {
        String at = name;
        for (int hops = 0; hops < 40; hops++) {
            Node n = nodes.get(at);
            if (n == null || !n.stat().isSymlink()) {
                return false;
            }
            at = n.target();
        }
        return true;
    }

    /** The probe for copying {@code src} to {@code dst} in this scene; {@code -i} is answered {@code answer}. */
    DestinationCheck.Probe probe(String src, String dst, boolean answer) {
        return new DestinationCheck.Probe() {
            @Override
            public DestinationCheck.Looked destination(boolean followLinks) {
                Stat s = followLinks ? stat(dst) : lstat(dst);
                if (s != null) {
                    return DestinationCheck.Looked.of(s);
                }
                if (followLinks && loops(dst)) {
                    return DestinationCheck.Looked.failed(DestinationCheck.Errno.ELOOP, "Too many levels of symbolic links");
                }
                return DestinationCheck.Looked.failed(DestinationCheck.Errno.ENOENT, "No such file or directory");
            }

            @Override
            public boolean justCreated(Stat destination) {
                return false;
            }

            @Override
            public boolean sourceIsDestinationBackup() {
                return false;
            }

            @Override
            public boolean writable() {
                return true;
            }

            @Override
            public boolean confirm(Diagnostic question) {
                return answer;
            }

            @Override
            public boolean complete(Stat destination) {
                return false;
            }

            @Override
            public Stat sourceLstat() {
                return lstat(src);
            }

            @Override
            public Stat destinationLstat() {
                return lstat(dst);
            }

            @Override
            public Stat sourceFollowed() {
                return stat(src);
            }

            @Override
            public Stat destinationFollowed() {
                return stat(dst);
            }

            @Override
            public boolean sameName() {
                return src.equals(dst);
            }
        };
    }
}
