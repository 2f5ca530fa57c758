package dev.cpx.cli.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Pipes, FIFOs and devices as source or destination. GNU cp writes to an existing FIFO or device
 * (opening it, as a reader on the other end sees), writes sequentially to a pipe on stdout
 * ({@code cp f /dev/stdout | cat}, holes as zeros), reads a FIFO's data with
 * {@code --copy-contents} or without {@code -r} — creating the copy before it reads, so a writer
 * that waits for the copy to appear can finish — and recreates FIFOs and devices with {@code -r}.
 * Every shell wrapper here bounds its waits, so a tool that blocks is compared as what it left.
 */
class SpecialFilesTest {

    /**
     * A reader on FIFO {@code p} saving what it gets in {@code out}: released (end of file) if the
     * command never opened p, stopped if p was replaced meanwhile (it then waits on the old FIFO).
     * The command starts once the reader is waiting in its open of p (the kernel's {@code wchan} of
     * {@code timeout}'s child {@code cat} says {@code wait_for_partner}; 3 s at most): GNU cp, quick to
     * start, could otherwise replace p first (then {@code cat: p: No such file or directory}), which
     * depends on the machine's speed, not on the copier.
     */
    static final String READER = """
            umask 022
            timeout 20 cat p > out & r=$!
            i=0
            while [ $i -lt 300 ]; do
              c=$(cat /proc/$r/task/$r/children 2>/dev/null); c=${c%% *}
              [ -n "$c" ] && [ "$(cat /proc/$c/wchan 2>/dev/null)" = wait_for_partner ] && break
              sleep 0.01; i=$((i+1))
            done
            timeout 20 "$@"; rc=$?
            for i in 1 2 3 4 5; do kill -0 $r 2>/dev/null || break; sleep 0.1; done
            if kill -0 $r 2>/dev/null; then
              [ -p p ] && timeout 1 sh -c ': > p' 2>/dev/null
              kill $r 2>/dev/null
            fi
            wait $r
            exit $rc
            """;

    /** A writer into FIFO {@code fifo}, released if the command never opens it. */
    static final String WRITER = """
            umask 022
            (echo fifo data; sleep 0.2; echo more) > fifo & w=$!
            timeout 20 "$@"; rc=$?
            if kill -0 $w 2>/dev/null; then timeout 2 cat fifo > /dev/null; kill $w 2>/dev/null; fi
            wait $w
            exit $rc
            """;

    /** A writer that waits (2 s at most) for {@code copy} to appear and records its mode meanwhile, as GNU's file-perm-race test. */
    static final String WRITER_WAITING_FOR_COPY = """
            umask 022
            ( i=0; while [ ! -e copy ] && [ $i -lt 20 ]; do sleep 0.1; i=$((i+1)); done
              stat -c %A copy > mode-while-reading 2>/dev/null || echo none > mode-while-reading
              echo data ) > fifo & w=$!
            timeout 20 "$@"; rc=$?
            if kill -0 $w 2>/dev/null; then timeout 7 cat fifo > /dev/null; fi
            wait $w
            exit $rc
            """;

    static final String SPARSE = "truncate -s 1M sparse\nprintf 'data in the middle' | dd of=sparse bs=1 seek=500000 conv=notrunc status=none\n";

    static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        String file = "printf 'some content\\n' > f\n";
        for (String opt : List.of("", "-f", "--sparse=always", "--sparse=never")) {
            rows.add(Row.cp("fifo", file + SPARSE, opt, "f /dev/stdout").wrapped("| cat", "umask 022\n\"$@\" | cat\nexit ${PIPESTATUS[0]}")
                    .waits().rule("copy.c: write to a pipe"));
            rows.add(Row.cp("fifo", SPARSE, opt, "sparse /dev/stdout").wrapped("| md5sum", "umask 022\n\"$@\" | md5sum\nexit ${PIPESTATUS[0]}")
                    .waits().rule("copy.c: a sparse file to a pipe"));
        }
        for (String opt : List.of("", "-f", "--remove-destination", "-n", "-b", "--sparse=always", "-p", "-a")) {
            Row row = Row.cp("fifo", file + "mkfifo p\n", opt, "f p").wrapped("reader on p", READER).waits()
                    .rule("copy.c: an existing FIFO as destination");
            if (opt.equals("-b") || opt.equals("--remove-destination")) {
                // The FIFO is replaced: whether the reader opened it, or the new file, races the copy.
                row.racing("out");
            }
            rows.add(row);
        }
        rows.add(Row.cp("fifo", SPARSE + "mkfifo p\n", "", "sparse p").wrapped("reader on p", READER).waits()
                .rule("copy.c: a sparse file to a FIFO"));
        rows.add(Row.cp("fifo", SPARSE + "mkfifo p\n", "--sparse=always", "sparse p").wrapped("reader on p", READER).waits()
                .rule("copy.c: a sparse file to a FIFO"));
        for (String opt : List.of("", "-p", "--copy-contents", "-p --copy-contents", "-r", "-a", "-r --copy-contents", "-a --copy-contents")) {
            rows.add(Row.cp("fifo", "mkfifo fifo\n", opt, "fifo copy").wrapped("writer on fifo", WRITER).waits()
                    .rule("copy.c: a FIFO as source"));
        }
        for (String opt : List.of("-p --copy-contents", "")) {
            rows.add(Row.cp("fifo", "mkfifo fifo\n", opt, "fifo copy").wrapped("writer waiting for the copy", WRITER_WAITING_FOR_COPY)
                    .waits().rule("copy.c: the copy exists while a FIFO is read"));
        }
        rows.add(Row.cp("fifo", "mkdir d\nmkfifo d/fifo\necho x > d/x\n", "-r --copy-contents", "d copy")
                .wrapped("writer on d/fifo", WRITER.replace("> fifo", "> d/fifo").replace("cat fifo", "cat d/fifo")).waits()
                .rule("copy.c: a FIFO as source"));
        // A character device of the scene's own (never /dev/null itself: a tool that replaced it would break the machine).
        String device = "mknod null c 1 3\nchmod 0666 null\n";
        for (String[] c : List.of(new String[] {"", "f null"}, new String[] {"--remove-destination", "f null"},
                new String[] {"-b", "f null"}, new String[] {"", "null copy"}, new String[] {"-r", "null copy"},
                new String[] {"-a", "null copy"}, new String[] {"-r --copy-contents", "null copy"})) {
            rows.add(Row.cp("fifo", file + device, c[0], c[1]).variant("null is a char device").rule("copy.c: devices"));
        }
        // sysfs attributes say 4096 bytes and hold a line, some cannot be read at all (EINVAL, EIO): GNU
        // cp reads each to its end, and says why one could not be read. (The loopback device's, in
        // every network namespace, whose values do not move.)
        for (String[] c : List.of(new String[] {"", "/sys/devices/virtual/net/lo/address copy"},
                new String[] {"", "/sys/devices/virtual/net/lo/address /sys/devices/virtual/net/lo/mtu d"},
                new String[] {"-r", "/sys/devices/virtual/net/lo/queues/rx-0 copy"},
                new String[] {"", "/sys/devices/virtual/net/lo/speed copy"})) {
            Row row = Row.cp("sysfs", "mkdir d\n", c[0], c[1]).rule("copy.c: a size that says more than the file holds");
            rows.add(c[1].contains("speed") ? row.gnuLeavesEmptyFile("copy") : row);
        }
        return rows;
    }

    @TestFactory
    Stream<DynamicTest> pipesFifosAndDevices() {
        return Differential.tests(rows());
    }
}
