package dev.cpx.core.plan;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Claiming chunks, as DistCp's dynamic strategy does: a worker takes a chunk by renaming
 * {@code todo/N} to {@code claimed/N@WHO}; of several workers renaming one file, exactly one
 * succeeds. The claim is a lease: its holder touches the file while it copies, and a chunk whose
 * holder is gone is claimed again by a rename of the claimed file. Gone means, on the same host,
 * that the holder's process (pid and start time) no longer runs; on another host, that the file
 * was not touched within the plan's lease time.
 */
public final class Claims {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final PlanDirectory plan;
    private final Who me;
    private Deque<String> pending;
    private int misses;
    /** Failed claims in a row after which the list of chunks to do is read again. */
    private static final int RELIST_AFTER = 4;

    /** A worker's identity as a claimed chunk's name carries it. */
    record Who(String host, long pid, long startMillis, int sequence) {
        @Override
        public String toString() {
            return host + "@" + pid + "@" + startMillis + "@" + sequence;
        }

        static Optional<Who> parse(String text) {
            String[] f = text.split("@");
            if (f.length != 4) {
                return Optional.empty();
            }
            try {
                return Optional.of(new Who(f[0], Long.parseLong(f[1]), Long.parseLong(f[2]), Integer.parseInt(f[3])));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
    }

    /** A chunk this worker holds. */
    public final class Claim {
        private final String chunk;
        private volatile Path file;

        Claim(String chunk, Path file) {
            this.chunk = chunk;
            this.file = file;
        }

        public String chunk() {
            return chunk;
        }

        Path file() {
            return file;
        }

        /** Renews the lease; false when the chunk was taken from this worker. */
        public boolean renew() {
            try {
                Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis()));
                return true;
            } catch (IOException e) {
                return false;
            }
        }

        /** Marks the chunk done (its report is written first); false when it was taken from this worker meanwhile. */
        public boolean done() throws IOException {
            try {
                move(file, plan.done().resolve(chunk));
                return true;
            } catch (NoSuchFileException e) {
                return false;
            }
        }
    }

    Claims(PlanDirectory plan) {
        this.plan = plan;
        ProcessHandle self = ProcessHandle.current();
        this.me = new Who(host(), self.pid(), startMillis(self), SEQUENCE.incrementAndGet());
    }

    /** This machine's name, as the kernel has it. */
    static String host() {
        String name;
        try {
            name = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
        } catch (IOException e) {
            name = System.getenv().getOrDefault("HOSTNAME", "unknown");
        }
        return name.isEmpty() ? "unknown" : name.replaceAll("[^A-Za-z0-9.-]", "_");
    }

    private static long startMillis(ProcessHandle p) {
        return p.info().startInstant().map(i -> i.toEpochMilli()).orElse(0L);
    }

    String who() {
        return me.toString();
    }

    /** Claims the next chunk to copy: one not claimed yet, else one whose holder is gone; empty when none is left. */
    public Optional<Claim> next() throws IOException {
        if (pending == null || misses >= RELIST_AFTER) {
            misses = 0;
            List<String> names = PlanDirectory.list(plan.todo());
            Collections.sort(names);
            // Each worker starts at its own place, so claimers rarely race for the same file.
            int start = names.isEmpty() ? 0 : ThreadLocalRandom.current().nextInt(names.size());
            pending = new ArrayDeque<>(names.size());
            pending.addAll(names.subList(start, names.size()));
            pending.addAll(names.subList(0, start));
        }
        while (!pending.isEmpty()) {
            String chunk = pending.poll();
            Path file = plan.claimed().resolve(chunk + "@" + me);
            try {
                move(plan.todo().resolve(chunk), file);
            } catch (NoSuchFileException e) {
                // Taken by another worker: after a few of these the list is stale, read it again.
                if (++misses >= RELIST_AFTER) {
                    return next();
                }
                continue;
            }
            misses = 0;
            Claim c = new Claim(chunk, file);
            c.renew();
            return Optional.of(c);
        }
        for (String name : PlanDirectory.list(plan.claimed())) {
            int at = name.indexOf('@');
            if (at < 0) {
                continue;
            }
            String chunk = name.substring(0, at);
            Optional<Who> holder = Who.parse(name.substring(at + 1));
            if (holder.isEmpty() || !gone(holder.get(), plan.claimed().resolve(name))) {
                continue;
            }
            Path file = plan.claimed().resolve(chunk + "@" + me);
            try {
                move(plan.claimed().resolve(name), file);
            } catch (NoSuchFileException e) {
                continue;
            }
            Claim c = new Claim(chunk, file);
            c.renew();
            return Optional.of(c);
        }
        return Optional.empty();
    }

    /** Whether the holder of a claimed chunk is gone (see the class comment). */
    boolean gone(Who holder, Path file) {
        if (holder.host().equals(me.host())) {
            Optional<ProcessHandle> p = ProcessHandle.of(holder.pid());
            if (p.isEmpty() || !p.get().isAlive()) {
                return true;
            }
            long started = startMillis(p.get());
            return holder.startMillis() != 0 && started != 0 && Math.abs(started - holder.startMillis()) > 1000;
        }
        try {
            FileTime touched = (FileTime) Files.getAttribute(file, "unix:ctime");
            return System.currentTimeMillis() - touched.toMillis() > plan.leaseMillis();
        } catch (IOException e) {
            return false;
        }
    }

    /** The holders of claimed chunks, for the status view: chunk and holder. */
    static List<String[]> holders(PlanDirectory plan) throws IOException {
        List<String[]> list = new ArrayList<>();
        for (String name : PlanDirectory.list(plan.claimed())) {
            int at = name.indexOf('@');
            if (at > 0) {
                list.add(new String[] {name.substring(0, at), name.substring(at + 1)});
            }
        }
        return list;
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the plan's file system cannot rename atomically: " + e.getMessage());
        }
    }
}
