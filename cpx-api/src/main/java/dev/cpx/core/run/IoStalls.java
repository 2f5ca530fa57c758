package dev.cpx.core.run;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Predicate;

/**
 * The time a run's CPUs sit idle because its tasks wait for I/O, read as two growing counters (time
 * lost, time passed, one unit) for {@link DiskWaits}: from the run's own control group where it has
 * one (cgroup v2's {@code io.pressure}, its {@code full} line: the share of the group's possible
 * CPU time lost with every task of it waiting for I/O, against the monotonic clock), else from the
 * machine's {@code iowait} in {@code /proc/stat} against its total CPU time. The group's own figure
 * first: in a container {@code /proc/stat} is the host's, so another tenant's reads would count as
 * this copy's waits and admit workers its CPUs do not need.
 */
final class IoStalls {

    private static final Path CPU_TIMES = Path.of("/proc/stat");
    private static final Path CGROUP = Path.of("/proc/self/cgroup");
    /** Where cgroup v2 is mounted: alone, or beside v1's controllers (a hybrid layout). */
    private static final List<Path> CGROUP2_MOUNTS = List.of(Path.of("/sys/fs/cgroup"), Path.of("/sys/fs/cgroup/unified"));

    private final FileChannel file;
    private final boolean pressure;

    private IoStalls(FileChannel file, boolean pressure) {
        this.file = file;
        this.pressure = pressure;
    }

    /** The run's control group's pressure file where there is one, else {@code /proc/stat}; null where neither opens. */
    static IoStalls open() {
        Path group = null;
        try {
            group = pressureFile(Files.readAllBytes(CGROUP), Files::isReadable);
        } catch (IOException | RuntimeException e) {
            // No control group to read: the machine's times.
        }
        if (group != null) {
            try {
                return new IoStalls(FileChannel.open(group, StandardOpenOption.READ), true);
            } catch (IOException | RuntimeException e) {
                // The machine's times, then.
            }
        }
        try {
            return new IoStalls(FileChannel.open(CPU_TIMES, StandardOpenOption.READ), false);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Whether the times come from the run's control group. */
    boolean fromGroup() {
        return pressure;
    }

    /** Reads the counters into {@code into[0]} (time lost) and {@code into[1]} (time passed); false where they do not read. */
    boolean read(ByteBuffer buf, long[] into) {
        if (pressure) {
            into[1] = System.nanoTime() / 1000;
            return fullStall(file, buf, into);
        }
        return cpuTimes(file, buf, into);
    }

    void close() {
        try {
            file.close();
        } catch (IOException e) {
            // Read only.
        }
    }

    /**
     * The {@code io.pressure} file of the cgroup v2 group named in {@code procSelfCgroup} (the
     * contents of {@code /proc/self/cgroup}: its {@code 0::PATH} line), the first under
     * {@link #CGROUP2_MOUNTS} that {@code readable} accepts; null where there is no v2 line, no such
     * file, or the group is the machine's own root (it has no {@code cgroup.events}; a container's
     * group, "/" inside its cgroup namespace, has one): there {@code /proc/stat} is the run's machine,
     * and its {@code iowait} is what the rule was measured with. A path with other bytes than
     * printable ASCII is not used (group names are).
     */
    static Path pressureFile(byte[] procSelfCgroup, Predicate<Path> readable) {
        int n = procSelfCgroup.length;
        int line = 0;
        while (line < n) {
            int end = line;
            while (end < n && procSelfCgroup[end] != '\n') {
                end++;
            }
            if (end - line >= 4 && procSelfCgroup[line] == '0' && procSelfCgroup[line + 1] == ':'
                    && procSelfCgroup[line + 2] == ':' && procSelfCgroup[line + 3] == '/') {
                StringBuilder relative = new StringBuilder();
                for (int i = line + 4; i < end; i++) {
                    byte b = procSelfCgroup[i];
                    if (b < 0x21 || b > 0x7e) {
                        return null;
                    }
                    relative.append((char) b);
                }
                for (Path mount : CGROUP2_MOUNTS) {
                    Path group = relative.length() == 0 ? mount : mount.resolve(relative.toString());
                    Path file = group.resolve("io.pressure");
                    if (readable.test(group.resolve("cgroup.events")) && readable.test(file)) {
                        return file;
                    }
                }
                return null;
            }
            line = end + 1;
        }
        return null;
    }

    /**
     * Reads the {@code total=} of the {@code full} line of a pressure file (microseconds) into
     * {@code into[0]}; false where there is none.
     */
    static boolean fullStall(FileChannel c, ByteBuffer buf, long[] into) {
        int n = readFrom(c, buf);
        // "some avg10=0.00 avg60=0.00 avg300=0.00 total=N\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=N\n"
        int line = 0;
        while (line + 5 <= n) {
            if (buf.get(line) == 'f' && buf.get(line + 1) == 'u' && buf.get(line + 2) == 'l' && buf.get(line + 3) == 'l'
                    && buf.get(line + 4) == ' ') {
                for (int i = line + 5; i + 6 <= n && buf.get(i) != '\n'; i++) {
                    if (buf.get(i) == 't' && buf.get(i + 1) == 'o' && buf.get(i + 2) == 't' && buf.get(i + 3) == 'a'
                            && buf.get(i + 4) == 'l' && buf.get(i + 5) == '=') {
                        long v = 0;
                        int j = i + 6;
                        byte b;
                        while (j < n && (b = buf.get(j)) >= '0' && b <= '9') {
                            v = v * 10 + (b - '0');
                            j++;
                        }
                        if (j == i + 6) {
                            return false;
                        }
                        into[0] = v;
                        return true;
                    }
                }
                return false;
            }
            while (line < n && buf.get(line) != '\n') {
                line++;
            }
            line++;
        }
        return false;
    }

    /**
     * Reads the machine's time idle waiting for I/O ({@code iowait}) into {@code into[0]} and its total time
     * into {@code into[1]}, in clock ticks, from the {@code cpu} line of {@code /proc/stat}; false
     * where it does not read as one.
     */
    static boolean cpuTimes(FileChannel c, ByteBuffer buf, long[] into) {
        int n = readFrom(c, buf);
        // "cpu  user nice system idle iowait irq softirq steal guest guest_nice\n"
        if (n < 5 || buf.get(0) != 'c' || buf.get(1) != 'p' || buf.get(2) != 'u' || buf.get(3) != ' ') {
            return false;
        }
        long ioWait = 0;
        long total = 0;
        int field = 0;
        int i = 4;
        while (i < n && buf.get(i) != '\n' && field < 8) {
            byte b = buf.get(i);
            if (b < '0' || b > '9') {
                i++;
                continue;
            }
            long v = 0;
            while (i < n && (b = buf.get(i)) >= '0' && b <= '9') {
                v = v * 10 + (b - '0');
                i++;
            }
            total += v;
            if (field == 4) {
                ioWait = v;
            }
            field++;
        }
        if (field < 5) {
            return false;
        }
        into[0] = ioWait;
        into[1] = total;
        return true;
    }

    /** The file's first bytes, read from its start into {@code buf}; their count, or -1. */
    private static int readFrom(FileChannel c, ByteBuffer buf) {
        buf.clear();
        try {
            return c.read(buf, 0);
        } catch (IOException e) {
            return -1;
        }
    }
}
