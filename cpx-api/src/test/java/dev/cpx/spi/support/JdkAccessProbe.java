package dev.cpx.spi.support;

import dev.cpx.core.fs.Stat;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Run in a child JVM by {@link JdkAccessTest}: exercises every access to the JDK's private state
 * (a path's bytes, a channel's descriptor, a channel made from a descriptor, one-call stat) in a
 * directory given as the only argument, and prints one line per result.
 */
public final class JdkAccessProbe {

    private JdkAccessProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        // Not UTF-8 where bytes are exact; else a name the platform encoding can carry.
        byte[] name = PathBytes.exact() ? new byte[] {'n', (byte) 0xff, 'm'} : "n\u00e1m".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Path odd = dir.resolve(PathBytes.path(name));
        Files.write(odd, new byte[] {1, 2, 3});
        System.out.println("exact " + PathBytes.exact());
        byte[] back = PathBytes.of(odd.getFileName());
        System.out.println("roundtrip " + Arrays.equals(name, back));
        try (var list = Files.list(dir)) {
            System.out.println("listed " + list.anyMatch(p -> Arrays.equals(PathBytes.of(p.getFileName()), name)));
        }
        System.out.println("descriptors " + FileDescriptors.availability().available());
        if (FileDescriptors.availability().available()) {
            try (FileChannel c = FileChannel.open(odd, StandardOpenOption.READ)) {
                int fd = FileDescriptors.of(c);
                Path link = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd));
                System.out.println("fd " + Arrays.equals(PathBytes.of(link), PathBytes.of(odd)));
            }
            // A channel that owns a descriptor: read and write through it, close it, the descriptor closes.
            Path rw = dir.resolve("rw");
            Files.write(rw, new byte[] {9, 9, 9, 9});
            int fd;
            try (FileChannel opened = FileChannel.open(rw, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                fd = dupOf(opened);
            }
            ByteBuffer b = ByteBuffer.allocate(4);
            try (FileChannel c = FileDescriptors.channel(fd, "rw", true, true)) {
                c.write(ByteBuffer.wrap(new byte[] {7, 7}), 0);
                c.read(b, 0);
            }
            System.out.println("channel " + Arrays.toString(b.array()) + " closed " + !Files.exists(Path.of("/proc/self/fd/" + fd)));
        }
        Stat direct = Stat.lstat(odd);
        var a = Files.readAttributes(odd, "unix:mode,ino,dev,nlink,uid,gid,rdev,ctime");
        System.out.println("stat " + (direct.mode() == (Integer) a.get("mode") && direct.ino() == (Long) a.get("ino")
                && direct.dev() == (Long) a.get("dev") && direct.nlink() == ((Number) a.get("nlink")).longValue()
                && direct.uid() == (Integer) a.get("uid") && direct.gid() == (Integer) a.get("gid")
                && direct.rdev() == (Long) a.get("rdev") && direct.ctime().equals(a.get("ctime"))));
    }

    /** A second descriptor for the open file of {@code c}, through /proc (no JNA in this module). */
    private static int dupOf(FileChannel c) throws Exception {
        // The probe needs a descriptor nobody else owns: a FileChannel left unclosed on purpose.
        FileChannel kept = FileChannel.open(Path.of("/proc/self/fd/" + FileDescriptors.of(c)),
                StandardOpenOption.READ, StandardOpenOption.WRITE);
        int fd = FileDescriptors.of(kept);
        LEAKED[0] = kept;
        return fd;
    }

    private static final Object[] LEAKED = new Object[1];
}
