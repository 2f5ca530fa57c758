package dev.cpx.cli.differential;

import dev.cpx.testing.Trees.Detail;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One generated case of the differential suite: how to build the scene (a bash script run as root
 * in an empty directory), the cp command line, and how to run it (environment, standard input, as
 * the unprivileged user, inside a shell wrapper). The same row runs through GNU cp in one scene and
 * through cpx, once per engine, in twin scenes built by the same script.
 *
 * <p>Rows are built fluently by the generators: each setter returns this row.
 */
public final class Row {

    /** The group (one generator), the first word of the test's name: {@code same-file}. */
    final String group;
    /** The GNU rule the row exercises, as the failure report groups it ({@code copy.c same_file_ok}). */
    String rule;
    /** Bash, run as root in the empty scene; then every entry gets the scene's fixed times. */
    final String setup;
    /** Bash run after the times are fixed and (for unprivileged rows) the scene is given to the user. */
    String post = "";
    final List<String> args;
    /** Words after the arguments in the name: {@code one fs}, {@code as cpxtest}, {@code umask 077}. */
    String variant = "";
    final Map<String, String> env = new LinkedHashMap<>();
    String stdin;
    boolean unprivileged;
    /** Whether a run may rightly wait without using CPU (a FIFO, a pipe): then only the overall timeout stops it. */
    boolean waits;
    boolean noAtime;
    /** Needs root on the machine (it mounts a file system). */
    boolean mounts;
    /** The script that runs the command, {@code "$@"} (see {@code Cli.runScript}). */
    String body = "umask 022\nexec \"$@\"";
    /** The wrapper's shape, shown in names and reports where it is not a plain run. */
    String shape = "";
    /** Whether lines of stdout and stderr may come in another order (several entries copied). */
    Boolean unordered;
    final Set<Detail> extra = EnumSet.noneOf(Detail.class);
    /**
     * Entries GNU cp leaves as empty regular files where cpx, by design, leaves nothing (README's
     * compatibility table says why): a failed clone ({@code --reflink=always}) leaves no file that looks
     * like a copy. Only exactly that may differ; everything else is compared as ever.
     */
    final Set<String> gnuLeavesEmpty = new java.util.TreeSet<>();
    /**
     * A directory whose contents are not compared: a copy of a directory into itself, filled until the
     * walk meets the copy, in the inode order the file system gave each twin scene (they differ).
     */
    String treeNotComparedUnder;
    /** Entries not compared at all, because a process at the other end of a FIFO races the copy for them. */
    final Set<String> notCompared = new java.util.TreeSet<>();
    /**
     * Directories whose modification time is not compared: which name of a hard-linked inode each tool
     * meets first (walk order) decides in which directory the later names are linked again.
     */
    final Set<String> mtimeNotCompared = new java.util.TreeSet<>();

    /** Java run on each scene after the setup script, before the times are fixed (xattrs, say). */
    Hook javaSetup;
    /** Java run on each scene after {@link #post} (what chown would undo: a file capability). */
    Hook javaPost;

    /** Setup steps that bash cannot take without extra tools. */
    @FunctionalInterface
    public interface Hook {
        void on(java.nio.file.Path scene) throws Exception;
    }

    private Row(String group, String setup, List<String> args) {
        this.group = group;
        this.rule = group;
        this.setup = setup;
        this.args = List.copyOf(args);
    }

    /** A row of {@code group}: the scene made by {@code setup}, then {@code cp args...}. */
    public static Row of(String group, String setup, String... args) {
        return new Row(group, setup, List.of(args));
    }

    public static Row of(String group, String setup, List<String> args) {
        return new Row(group, setup, args);
    }

    /**
     * A row from words: {@code options} and {@code operands} are split on spaces (neither may hold
     * a name with a space; use {@link #of(String, String, List)} for those).
     */
    public static Row cp(String group, String setup, String options, String operands) {
        List<String> a = new ArrayList<>();
        for (String w : (options + " " + operands).trim().split(" +")) {
            if (!w.isEmpty()) {
                a.add(w);
            }
        }
        return new Row(group, setup, a);
    }

    /**
     * {@link #notCompared}: {@code path} is not compared: what a FIFO's reader or writer does to it depends
     * on how soon each tool opens what (a JVM starts later than GNU cp), not on the rules.
     */
    public Row racing(String path) {
        notCompared.add(path);
        return this;
    }

    /** {@link #treeNotComparedUnder}: {@code dir}'s contents are not compared (exit, messages, the rest are). */
    public Row contentsDependOnInodeOrder(String dir) {
        treeNotComparedUnder = dir;
        return this;
    }

    /** {@link #mtimeNotCompared}: {@code paths}' modification times are not compared (all else is). */
    public Row mtimeDependsOnWalkOrder(String... paths) {
        mtimeNotCompared.addAll(List.of(paths));
        return this;
    }

    /** {@link #gnuLeavesEmpty}: a documented difference of cpx's, checked to be exactly that. */
    public Row gnuLeavesEmptyFile(String path) {
        gnuLeavesEmpty.add(path);
        return this;
    }

    public Row rule(String r) {
        rule = r;
        return this;
    }

    public Row post(String script) {
        post = script;
        return this;
    }

    public Row java(Hook h) {
        javaSetup = h;
        return this;
    }

    public Row javaPost(Hook h) {
        javaPost = h;
        return this;
    }

    public Row variant(String v) {
        variant = v;
        return this;
    }

    public Row env(String key, String value) {
        env.put(key, value);
        return this;
    }

    public Row stdin(String in) {
        stdin = in;
        return this;
    }

    /** Runs GNU cp and cpx as the unprivileged user; the scene is theirs (chown -R) before {@link #post} runs. */
    public Row unprivileged() {
        unprivileged = true;
        return this;
    }

    /** Supplementary groups (comma-separated gids) the unprivileged user runs with; none by default. */
    String groups;

    /** Runs as the unprivileged user, member of these supplementary groups too. */
    public Row unprivilegedWithGroups(String gids) {
        unprivileged = true;
        groups = gids;
        return this;
    }

    public Row unprivileged(boolean yes) {
        unprivileged = yes;
        return this;
    }

    /**
     * Access times are not compared: hard links copied apart move the one access time their names
     * share while each tool reads them, in its own order.
     */
    public Row noAtime() {
        noAtime = true;
        return this;
    }

    public Row waits() {
        waits = true;
        return this;
    }

    public Row mounts() {
        mounts = true;
        return this;
    }

    /**
     * Runs the command inside {@code script}, where {@code "$@"} is the command (GNU cp or cpx, with
     * the user prefix): {@code umask 077; exec "$@"}, {@code "$@" | cat; exit ${PIPESTATUS[0]}}.
     * {@code shape} names it in the test's name.
     */
    public Row wrapped(String shape, String script) {
        this.shape = shape;
        this.body = script;
        return this;
    }

    public Row unordered(boolean yes) {
        unordered = yes;
        return this;
    }

    public Row details(Detail... d) {
        extra.addAll(List.of(d));
        return this;
    }

    private static final Pattern RECURSIVE = Pattern.compile("-[a-zA-Z]*[rRa][a-zA-Z]*|--recursive|--archive|--rec.*|--arc.*");
    private static final Pattern PRESERVING = Pattern.compile("-[a-zA-Z]*[ap][a-zA-Z]*|--archive|--arc.*|--preserve(=.*)?|--pres.*");

    /**
     * Whether several entries are copied, so lines may come in another order (cpx's workers run in
     * parallel): recursive copies and several sources. A single entry's messages must match exactly.
     */
    boolean orderFree() {
        if (unordered != null) {
            return unordered;
        }
        long operands = args.stream().filter(a -> !a.startsWith("-") || a.equals("-")).count();
        return operands > 2 || args.stream().anyMatch(a -> RECURSIVE.matcher(a).matches() && !a.startsWith("--no-"));
    }

    /** Whether timestamps are preserved, so access times of what was made are compared too. */
    boolean preservesTimes() {
        return args.stream().anyMatch(a -> PRESERVING.matcher(a).matches() && !a.contains("--no-preserve"));
    }

    /** {@code group[args, variant, engine]}: the test's display name. */
    String name(String engine) {
        List<String> parts = new ArrayList<>();
        parts.add(command());
        if (!variant.isEmpty()) {
            parts.add(variant);
        }
        if (!shape.isEmpty()) {
            parts.add(shape);
        }
        parts.add(engine);
        return group + "[" + String.join(", ", parts) + "]";
    }

    /** The arguments as a shell would show them. */
    String command() {
        List<String> words = new ArrayList<>();
        for (String a : args) {
            words.add(quote(a));
        }
        return String.join(" ", words);
    }

    /** The command line to reproduce the row by hand, environment and wrapper included. */
    String reproduction() {
        StringBuilder sb = new StringBuilder();
        env.forEach((k, v) -> sb.append(k).append('=').append(quote(v)).append(' '));
        sb.append("cp ").append(command());
        if (stdin != null) {
            sb.append(" <<< ").append(quote(stdin.strip()));
        }
        if (unprivileged) {
            sb.append("   (as ").append(dev.cpx.testing.Unprivileged.USER).append(')');
        }
        if (!shape.isEmpty()) {
            sb.append("   (run as: ").append(body.replace("\n", "; ")).append(')');
        }
        return sb.toString();
    }

    static String quote(String a) {
        if (!a.isEmpty() && a.matches("[A-Za-z0-9_./=:,+@%~^-]+")) {
            return a;
        }
        return "'" + a.replace("'", "'\\''") + "'";
    }

    @Override
    public String toString() {
        return name("-");
    }
}
