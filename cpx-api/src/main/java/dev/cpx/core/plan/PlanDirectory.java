package dev.cpx.core.plan;

import dev.cpx.api.CopyOptions;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.fs.TempNames;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;

/**
 * The plan directory every node sees, and what it holds:
 * <pre>
 * plan.properties  the options, operands and targets (and which are staged), written first
 * dirs             the directories, deepest first (each after everything below it)
 * todo/N           chunks not claimed yet
 * claimed/N@WHO    chunks being copied; WHO is host@pid@start@n, the lease is the file's ctime
 * done/N           chunks copied (their outcome in reports/N)
 * reports/N        each chunk's outcome
 * splits           the files split into ranges copied by different workers
 * ranges/F/I       range I of split file F is copied (see {@link SplitFiles})
 * manifest         per chunk: entries, bytes, CRC-32C; written last, so its presence means complete
 * </pre>
 * It is input that other people's processes could touch: {@link #open} refuses a plan that another
 * user owns or can write.
 */
public final class PlanDirectory {

    static final String PROPERTIES = "plan.properties";
    static final String DIRS = "dirs";
    static final String MANIFEST = "manifest";
    static final String TODO = "todo";
    static final String CLAIMED = "claimed";
    static final String DONE = "done";
    static final String REPORTS = "reports";
    static final String STARTED = "started";
    static final String SPLITS = "splits";
    static final String RANGES = "ranges";
    /** The directories of a plan, made by the planner. */
    static final List<String> PARTS = List.of(TODO, CLAIMED, DONE, REPORTS, RANGES);
    /**
     * 2: big files split into ranges ({@link #SPLITS}, {@link #RANGES}); 3: CRC-32C chunk checksums;
     * 4: new directory operands staged ({@link #staged}), which a worker of an earlier version would
     * copy under their final names.
     */
    static final int VERSION = 4;
    /** Suffix of a staged operand's copy while the plan is being carried out: {@code .NAME.cpx-plan}. */
    static final String STAGING = ".cpx-plan";

    private final Path root;
    private final Properties properties;
    private final Manifest manifest;

    private PlanDirectory(Path root, Properties properties, Manifest manifest) {
        this.root = root;
        this.properties = properties;
        this.manifest = manifest;
    }

    /** Opens a complete plan, checking that no other user owns it or can write to it. */
    public static PlanDirectory open(Path root) throws IOException {
        checkOwned(root, true);
        checkOwned(root.resolve(PROPERTIES), false);
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(root.resolve(PROPERTIES))) {
            p.load(in);
        }
        if (!Integer.toString(VERSION).equals(p.getProperty("version"))) {
            throw new IOException("plan " + show(root) + " has format version " + p.getProperty("version")
                    + "; this cpx reads version " + VERSION);
        }
        for (String d : PARTS) {
            checkOwned(root.resolve(d), true);
        }
        Path manifestFile = root.resolve(MANIFEST);
        if (Stat.lstatOrNull(manifestFile) == null) {
            throw new IOException("plan " + show(root) + " is not complete (no manifest: planning failed or still runs)");
        }
        checkOwned(manifestFile, false);
        checkOwned(root.resolve(DIRS), false);
        checkOwned(root.resolve(SPLITS), false);
        return new PlanDirectory(root, p, Manifest.read(manifestFile));
    }

    /**
     * Refuses {@code path} unless it is owned by this process's user, is no symbolic link, and no
     * one else can write to it.
     */
    static void checkOwned(Path path, boolean directory) throws IOException {
        Stat st;
        try {
            st = Stat.lstat(path);
        } catch (IOException e) {
            throw new IOException("cannot read plan " + show(path) + ": " + dev.cpx.api.Diagnostic.reasonOf(e));
        }
        int me = myUid();
        if (st.uid() != me) {
            throw new IOException("refusing plan " + show(path) + ": owned by uid " + st.uid() + ", not by uid " + me);
        }
        if ((st.mode() & 0022) != 0) {
            throw new IOException("refusing plan " + show(path) + ": other users can write to it (mode "
                    + String.format("%04o", st.permissions()) + ")");
        }
        if (directory ? !st.isDirectory() : !st.isRegular()) {
            throw new IOException("refusing plan " + show(path) + ": not a " + (directory ? "directory" : "regular file"));
        }
    }

    /** This process's uid, as the owner of a file it just made. */
    static int myUid() throws IOException {
        Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        return (Integer) uid;
    }

    static String show(Path p) {
        return dev.cpx.api.ShellQuote.quote(p);
    }

    public Path root() {
        return root;
    }

    Path todo() {
        return root.resolve(TODO);
    }

    Path claimed() {
        return root.resolve(CLAIMED);
    }

    Path done() {
        return root.resolve(DONE);
    }

    Path reports() {
        return root.resolve(REPORTS);
    }

    Path dirs() {
        return root.resolve(DIRS);
    }

    Path splits() {
        return root.resolve(SPLITS);
    }

    /** Where the copied ranges of split file {@code file} are marked. */
    Path ranges(long file) {
        return root.resolve(RANGES).resolve(Long.toString(file));
    }

    Manifest manifest() {
        return manifest;
    }

    CopyOptions options() throws IOException {
        return OptionsCodec.read(properties);
    }

    int operands() {
        return Integer.parseInt(properties.getProperty("operands"));
    }

    Path source(int operand) {
        return bytesPath(properties.getProperty("source." + operand));
    }

    /** Where the workers make the operand's copy: its staging name when it is {@link #staged}, else its target. */
    Path target(int operand) {
        Path target = finalTarget(operand);
        return staged(operand) ? staging(target) : target;
    }

    /** Where a new tree copied to {@code target} ("{@code d}" or "{@code d/}") is made until finished: {@code .d.cpx-plan} beside it. */
    static Path staging(Path target) {
        return TempNames.of(PathBytes.withoutTrailingSlashes(target), STAGING);
    }

    /** The operand's copy's final name (the destination, or a name in it). */
    Path finalTarget(int operand) {
        return bytesPath(properties.getProperty("target." + operand));
    }

    /**
     * Whether the operand is a new directory tree made under its staging name ({@code .NAME.cpx-plan}
     * next to its target) and renamed to its target by the finish step once every chunk is done:
     * then nothing under the target's name is ever incomplete, and the workers write each file under
     * its own name at once (one exclusive create) instead of unnamed and linked.
     */
    boolean staged(int operand) {
        return Boolean.parseBoolean(properties.getProperty("staged." + operand));
    }

    /** Whether the operand's target is the destination operand itself, which may be a symbolic link to a directory. */
    boolean targetFollowed(int operand) {
        return !staged(operand) && Boolean.parseBoolean(properties.getProperty("targetFollowed." + operand));
    }

    /** The planner's umask, for the modes of directories the copy makes. */
    int umask() {
        return Integer.parseInt(properties.getProperty("umask"), 8);
    }

    long leaseMillis() {
        return Long.parseLong(properties.getProperty("leaseMillis"));
    }

    static Path bytesPath(String base64) {
        return PathBytes.path(Base64.getDecoder().decode(base64));
    }

    static String base64(Path p) {
        return Base64.getEncoder().encodeToString(PathBytes.of(p));
    }

    /** Chunk names in {@code dir} (the part before any {@code @}). */
    static List<String> list(Path dir) throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                String n = p.getFileName().toString();
                if (!n.startsWith(".")) {
                    names.add(n);
                }
            }
        }
        return names;
    }

    /** Writes {@code file} whole under a temporary name, then renames it into place. */
    static void writeAtomically(Path file, byte[] content) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + "." + ProcessHandle.current().pid() + "."
                + Thread.currentThread().getId() + ".tmp");
        try (OutputStream out = Files.newOutputStream(tmp)) {
            out.write(content);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** One directory of the list: its operand, its name below the operand, whether its target existed when planned. */
    record Dir(int operand, byte[] name, boolean existed) {
    }

    static void writeDir(java.io.DataOutputStream out, int operand, byte[] name, boolean existed) throws IOException {
        out.writeByte('d');
        out.writeInt(operand);
        PlanNames.write(out, name);
        out.writeBoolean(existed);
    }

    static void writeEnd(java.io.DataOutputStream out) throws IOException {
        out.writeByte(0);
    }

    /** The next directory of the list, or null at its end. */
    static Dir readDir(java.io.DataInputStream in) throws IOException {
        byte b = in.readByte();
        if (b == 0) {
            return null;
        }
        if (b != 'd') {
            throw new IOException("bad directory list");
        }
        int operand = in.readInt();
        return new Dir(operand, PlanNames.read(in), in.readBoolean());
    }

    /**
     * {@code p} in the format {@link Properties#load(java.io.InputStream)} reads, keys sorted, without
     * the date line {@link Properties#store} always writes: formatting that date loads the JDK's
     * time-zone names (50 ms of a plan's start).
     */
    static byte[] properties(Properties p, String comment) {
        StringBuilder sb = new StringBuilder("# ").append(comment).append('\n');
        for (String key : new java.util.TreeSet<>(p.stringPropertyNames())) {
            escape(sb, key, true);
            sb.append('=');
            escape(sb, p.getProperty(key), false);
            sb.append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Properties' escapes: backslash, separators and comment marks, controls, and non-ASCII as {@code \}{@code uXXXX}. */
    private static void escape(StringBuilder sb, String s, boolean key) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case ' ' -> sb.append(i == 0 || key ? "\\ " : " ");
                case '\t' -> sb.append("\\t");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\f' -> sb.append("\\f");
                case '\\', '=', ':', '#', '!' -> sb.append('\\').append(c);
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        sb.append("\\u").append(java.util.HexFormat.of().withUpperCase().toHexDigits((short) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
