package dev.cpx.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.testing.Unprivileged;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Where a run reads the time its CPUs lose waiting for I/O: its own control group's pressure where it
 * has one (a table of {@code /proc/self/cgroup} contents and the files a machine has), else the
 * machine's {@code /proc/stat}; both read from real files, and from a real cgroup v2 group this test
 * process is moved into.
 */
class IoStallsTest {

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0} with {1}: {2}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
        // /proc/self/cgroup (\n between lines) | readable files (space-separated) | chosen
        "0::/                                | /sys/fs/cgroup/cgroup.events /sys/fs/cgroup/io.pressure | /sys/fs/cgroup/io.pressure",
        "0::/                                | /sys/fs/cgroup/unified/io.pressure                       | -",
        "0::/                                | /sys/fs/cgroup/io.pressure                               | -",
        "0::/system.slice/x.service          | /sys/fs/cgroup/system.slice/x.service/cgroup.events /sys/fs/cgroup/system.slice/x.service/io.pressure | /sys/fs/cgroup/system.slice/x.service/io.pressure",
        "12:memory:/a\\n1:cpu:/a\\n0::/a      | /sys/fs/cgroup/unified/a/cgroup.events /sys/fs/cgroup/unified/a/io.pressure | /sys/fs/cgroup/unified/a/io.pressure",
        "0::/a\\n                             | /sys/fs/cgroup/a/cgroup.events                           | -",
        "12:memory:/a\\n1:cpu:/a              | /sys/fs/cgroup/a/cgroup.events /sys/fs/cgroup/a/io.pressure | -",
        "0::/caf\\xc3\\xa9                     | /sys/fs/cgroup/caf\u00e9/cgroup.events /sys/fs/cgroup/caf\u00e9/io.pressure | -",
        "0::/a b                             | /sys/fs/cgroup/a b/cgroup.events /sys/fs/cgroup/a b/io.pressure | -",
        "''                                  | /sys/fs/cgroup/cgroup.events /sys/fs/cgroup/io.pressure | -",
    })
    void theRunsOwnGroupsPressureWhereItHasOneNotTheMachinesRoot(String cgroup, String readable, String chosen) {
        byte[] contents = bytes(cgroup.trim());
        Set<Path> files = Arrays.stream(readable.trim().split(" (?=/)")).map(Path::of).collect(Collectors.toSet());
        Path file = IoStalls.pressureFile(contents, files::contains);
        assertEquals(chosen == null ? null : Path.of(chosen.trim()), file);
    }

    /** The table's text as bytes: {@code \n} a newline, {@code \xHH} one byte, {@code ''} nothing. */
    private static byte[] bytes(String s) {
        if (s.equals("''")) {
            return new byte[0];
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && s.charAt(i + 1) == 'n') {
                out.write('\n');
                i++;
            } else if (c == '\\' && s.charAt(i + 1) == 'x') {
                out.write(Integer.parseInt(s.substring(i + 2, i + 4), 16));
                i += 3;
            } else {
                out.write(c);
            }
        }
        return out.toByteArray();
    }

    @Test
    void theGroupsLossIsTheTotalOfItsFullLine() throws Exception {
        Path pressure = tmp.resolve("io.pressure");
        long[] times = {-1, -1};
        Files.writeString(pressure, "some avg10=1.00 avg60=2.00 avg300=3.00 total=987654\nfull avg10=0.50 avg60=1.00 avg300=1.50 total=123456\n");
        assertTrue(read(pressure, times));
        assertEquals(123456, times[0]);
        Files.writeString(pressure, "some avg10=1.00 avg60=2.00 avg300=3.00 total=987654\n");
        assertFalse(read(pressure, times), "no full line");
        Files.writeString(pressure, "full avg10=0.50 avg60=1.00 avg300=1.50 total=\n");
        assertFalse(read(pressure, times), "no number");
        Files.writeString(pressure, "fully avg10=0.50 total=5\n");
        assertFalse(read(pressure, times), "another line");
    }

    private static boolean read(Path pressure, long[] times) throws Exception {
        try (FileChannel c = FileChannel.open(pressure)) {
            return IoStalls.fullStall(c, ByteBuffer.allocate(512), times);
        }
    }

    @Test
    void theMachinesTimeWaitingForIoIsItsFifthField() throws Exception {
        Path stat = tmp.resolve("stat");
        Files.writeString(stat, "cpu  725855 622 597627 1067477 46107 0 15413 7 11 0\ncpu0 1 2 3 4 5 6 7 8 9 10\nintr 1 2 3\n");
        long[] times = new long[2];
        try (FileChannel c = FileChannel.open(stat)) {
            assertTrue(IoStalls.cpuTimes(c, ByteBuffer.allocate(512), times));
        }
        assertEquals(46107, times[0]);
        assertEquals(725855 + 622 + 597627 + 1067477 + 46107 + 0 + 15413 + 7, times[1], "user to steal; guest is in user");
        Files.writeString(stat, "intr 1 2 3\n");
        try (FileChannel c = FileChannel.open(stat)) {
            assertFalse(IoStalls.cpuTimes(c, ByteBuffer.allocate(512), times), "not a cpu line");
        }
    }

    @Test
    void thisMachinesCpuTimesRead() throws Exception {
        long[] times = new long[2];
        try (FileChannel c = FileChannel.open(Path.of("/proc/stat"))) {
            assertTrue(IoStalls.cpuTimes(c, ByteBuffer.allocate(512), times));
        }
        assertTrue(times[0] >= 0 && times[1] > times[0], times[0] + " waiting for I/O of " + times[1]);
    }

    @Test
    void whatThisProcessReadsGrowsWithTime() throws Exception {
        IoStalls stalls = IoStalls.open();
        assertNotNull(stalls, "neither a group's pressure nor /proc/stat opens");
        try {
            long[] first = new long[2];
            long[] second = new long[2];
            ByteBuffer buf = ByteBuffer.allocate(512);
            assertTrue(stalls.read(buf, first));
            Thread.sleep(30);
            assertTrue(stalls.read(buf, second));
            assertTrue(second[1] > first[1] && second[0] >= first[0] && second[0] - first[0] <= (second[1] - first[1]) * 64,
                    Arrays.toString(first) + " then " + Arrays.toString(second));
        } finally {
            stalls.close();
        }
    }

    /**
     * In a group of its own (cgroup v2, as a container or a systemd service has), the run reads that
     * group's pressure, not the machine's: this test's process is moved into a new group and back.
     */
    @Test
    void aProcessInAGroupOfItsOwnReadsTheGroupsPressure() throws Exception {
        assumeTrue(Unprivileged.isRoot(), "moving a process between control groups needs root");
        Path mount = null;
        for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
            String[] f = line.split(" ");
            if (f.length > 2 && f[2].equals("cgroup2") && (f[1].equals("/sys/fs/cgroup") || f[1].equals("/sys/fs/cgroup/unified"))) {
                mount = Path.of(f[1]);
            }
        }
        assumeTrue(mount != null, "no cgroup v2 mounted at /sys/fs/cgroup or /sys/fs/cgroup/unified");
        assumeTrue(Files.isWritable(mount), "cgroup v2 is mounted read-only here (a container)");
        String own = Files.readAllLines(Path.of("/proc/self/cgroup")).stream()
                .filter(l -> l.startsWith("0::/")).findFirst().orElseThrow().substring(4);
        Path home = own.isEmpty() ? mount : mount.resolve(own);
        // A sibling of the process's own group (a leaf: v2 keeps processes in leaves only).
        Path group = (own.isEmpty() ? mount : home.getParent()).resolve("cpx-io-stalls-test-" + ProcessHandle.current().pid());
        String pid = Long.toString(ProcessHandle.current().pid());
        Files.createDirectory(group);
        try {
            Files.writeString(group.resolve("cgroup.procs"), pid);
            try {
                IoStalls stalls = IoStalls.open();
                assertNotNull(stalls);
                try {
                    assertTrue(stalls.fromGroup(), "reads " + new String(Files.readAllBytes(Path.of("/proc/self/cgroup")), StandardCharsets.US_ASCII));
                    long[] times = new long[2];
                    assertTrue(stalls.read(ByteBuffer.allocate(512), times));
                    assertTrue(times[0] >= 0 && times[1] > 0, Arrays.toString(times));
                } finally {
                    stalls.close();
                }
            } finally {
                Files.writeString(home.resolve("cgroup.procs"), pid);
            }
        } finally {
            Files.delete(group);
        }
        assertFalse(Files.exists(group));
    }
}
