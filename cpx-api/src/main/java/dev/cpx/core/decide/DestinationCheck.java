package dev.cpx.core.decide;

import dev.cpx.api.BackupMode;
import dev.cpx.api.CopyMode;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.Dereference;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.OverwritePolicy;
import dev.cpx.core.fs.Stat;
import dev.cpx.spi.support.PathBytes;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What to do about the destination of one entry before it is copied, in GNU cp's order of checks
 * ({@code copy_internal}): how the destination is looked at, the same-file rule, {@code --resume},
 * {@code -u}, {@code -n}, {@code -i}, directory against non-directory, "just created", then
 * whether the destination is first backed up or removed. A function of the entry, the options and
 * the answers of a {@link Probe}; it changes nothing itself.
 */
public final class DestinationCheck {

    /** What is done to an existing destination before the copy is made. */
    public enum Prepare {
        /** Nothing: it is absent, or written into (a regular file), or replaced when the copy is made. */
        NONE,
        /** Renamed to its backup name ({@code --backup}). */
        BACKUP,
        /** Removed ({@code --remove-destination}, and what cannot be written into). */
        UNLINK
    }

    /** Why nothing is done, successfully. */
    public enum KeepReason {
        /** {@code -n}. */
        NO_CLOBBER,
        /** {@code -i}, answered no. */
        DECLINED,
        /** {@code -u}: the destination is not older than the source. */
        UP_TO_DATE,
        /** {@code --resume}: the destination is the complete copy already. */
        COMPLETE,
        /** The destination is already what the copy would make ({@code cp -l foo foo}). */
        NOTHING_TO_DO
    }

    /** The decision. */
    public sealed interface Decision permits Fail, Keep, Go {
    }

    /**
     * Refused; the copy of this entry fails with {@code why}.
     *
     * @param whileMaking GNU finds this only when it makes the copy, after {@code -v} has named it
     */
    public record Fail(Diagnostic why, boolean whileMaking) implements Decision {
        public Fail(Diagnostic why) {
            this(why, false);
        }
    }

    /** Nothing is done, and that is not a failure; {@code destination} is what is there. */
    public record Keep(KeepReason reason, Stat destination) implements Decision {
    }

    /**
     * Go on and make the copy.
     *
     * @param newDestination the destination does not exist (or will not once {@code prepare} is done)
     * @param prepare what to do first to the existing destination
     * @param destination the destination's stat as looked at; null when it does not exist or could not be
     *     looked at (a looping symlink with {@code -f}: the copy then removes it when opening fails)
     */
    public record Go(boolean newDestination, Prepare prepare, Stat destination, boolean throughDanglingSymlink)
            implements Decision {
        public Go(boolean newDestination, Prepare prepare, Stat destination) {
            this(newDestination, prepare, destination, false);
        }

        /** Nothing there: a new destination, nothing to prepare (the common answer, made once). */
        public static final Go NEW = new Go(true, Prepare.NONE, null);
    }

    /** A destination's stat, or why there is none. */
    public record Looked(Stat stat, Errno errno, String reason) {
        public static Looked of(Stat stat) {
            return new Looked(stat, null, "");
        }

        public static Looked failed(Errno errno, String reason) {
            return new Looked(null, errno, reason);
        }
    }

    /** The errors a look at the destination can end with that the rules tell apart. */
    public enum Errno {
        ENOENT,
        ELOOP,
        OTHER
    }

    /** What the rules ask of the world; answers are read only when a rule needs them. */
    public interface Probe extends SameFile.Facts {
        /** The destination's {@code lstat} ({@code followLinks} false) or {@code stat}. */
        Looked destination(boolean followLinks);

        /** Whether an earlier operand of this command line made the destination with these attributes. */
        boolean justCreated(Stat destination);

        /**
         * Whether the source is the simple backup the destination would get ({@code cp --backup=simple a~ a}
         * with {@code a~} the backup of {@code a}).
         */
        boolean sourceIsDestinationBackup();

        /** Whether the user may write the destination ({@code access(W_OK)}). */
        boolean writable();

        /** Asks the user ({@code -i}); true is yes. */
        boolean confirm(Diagnostic question);

        /** {@code --resume}: whether the destination is already the complete copy. */
        boolean complete(Stat destination);
    }

    private DestinationCheck() {
    }

    /**
     * Whether the destination is looked at without following a symlink: regular files can be written
     * through a symlink, other kinds cannot, and a destination that will be replaced is not followed.
     */
    public static boolean usesLstat(Stat source, CopyOptions o) {
        boolean copyAsRegular = !o.recursive() || o.copyContents();
        return (!source.isRegular() && (!copyAsRegular || source.isDirectory() || source.isSymlink()))
                || o.mode() == CopyMode.SYMBOLIC_LINK || o.mode() == CopyMode.HARD_LINK
                || o.backup() != BackupMode.NONE || o.removeDestination();
    }

    /** The same-file options of {@code o}, for an entry whose links are followed as {@code dereference} says. */
    public static SameFile.Options sameFileOptions(CopyOptions o, boolean noDereference) {
        return new SameFile.Options(noDereference, o.mode() == CopyMode.HARD_LINK, o.mode() == CopyMode.SYMBOLIC_LINK,
                o.backup() != BackupMode.NONE, o.removeDestination());
    }

    /**
     * Decides for {@code e}.
     *
     * @param noDereference whether the source's links are not followed for this entry (GNU's DEREF_NEVER)
     */
    public static Decision decide(Entry e, CopyOptions o, boolean noDereference, Probe probe) {
        Stat src = e.stat();
        if (e.placement().absent()) {
            return justCreatedSymlink(e, o, probe, null, false, Prepare.NONE, Go.NEW);
        }
        boolean lstat = usesLstat(src, o);
        Looked looked = probe.destination(!lstat);
        if (looked.stat() == null) {
            if (looked.errno() == Errno.ELOOP && o.force()) {
                // Removed when opening it fails.
                return justCreatedSymlink(e, o, probe, null, false, Prepare.NONE, new Go(false, Prepare.NONE, null));
            }
            if (looked.errno() != Errno.ENOENT) {
                return new Fail(Diagnostic.of("cannot stat {0}", e.target(), looked.reason()));
            }
            Decision d = justCreatedSymlink(e, o, probe, null, false, Prepare.NONE, Go.NEW);
            if (d instanceof Go && !lstat) {
                // Followed and not found: a symlink there is dangling, and a new file is not made through it.
                Stat link = probe.destination(false).stat();
                if (link != null && link.isSymlink()) {
                    if (o.writeThroughDanglingSymlinks()) {
                        return new Go(true, Prepare.NONE, link, true);
                    }
                    return new Fail(Diagnostic.of("not writing through dangling symlink {0}", e.target()), true);
                }
            }
            return d;
        }
        Stat dst = looked.stat();
        boolean noClobber = o.overwrite() == OverwritePolicy.NO_CLOBBER;
        boolean returnNow = false;
        if (!noClobber) {
            SameFile.Verdict verdict = SameFile.judge(src, dst, sameFileOptions(o, noDereference), probe);
            if (verdict == SameFile.Verdict.SAME_FILE) {
                return new Fail(Diagnostic.of("{0} and {1} are the same file", e.source(), e.target()));
            }
            returnNow = verdict == SameFile.Verdict.NOTHING_TO_DO;
        }
        if (o.resume() && probe.complete(dst)) {
            return new Keep(KeepReason.COMPLETE, dst);
        }
        if (o.update() && !src.isDirectory() && dst.mtime().compareTo(src.mtime()) >= 0) {
            return new Keep(KeepReason.UP_TO_DATE, dst);
        }
        if (!src.isDirectory()) {
            if (noClobber) {
                return new Keep(KeepReason.NO_CLOBBER, dst);
            }
            if (o.overwrite() == OverwritePolicy.ASK && !probe.confirm(question(e.target(), dst, o, probe))) {
                return new Keep(KeepReason.DECLINED, dst);
            }
        }
        if (returnNow) {
            return new Keep(KeepReason.NOTHING_TO_DO, dst);
        }
        if (!dst.isDirectory()) {
            if (src.isDirectory()) {
                return new Fail(Diagnostic.of("cannot overwrite non-directory {0} with directory {1}",
                        e.target(), e.source()));
            }
            if (e.operand() && o.backup() != BackupMode.NUMBERED && probe.justCreated(dst)) {
                return new Fail(Diagnostic.of("will not overwrite just-created {0} with {1}", e.target(),
                        e.source()));
            }
        }
        if (!src.isDirectory() && dst.isDirectory()) {
            return new Fail(Diagnostic.of("cannot overwrite directory {0} with non-directory", e.target()));
        }
        Prepare prepare = Prepare.NONE;
        if (o.backup() != BackupMode.NONE && !isDotOrDotDot(e.source()) && !dst.isDirectory()) {
            if (o.backup() != BackupMode.NUMBERED && probe.sourceIsDestinationBackup()) {
                return new Fail(Diagnostic.of("backing up {0} might destroy source;  {1} not copied",
                        e.target(), e.source()));
            }
            prepare = Prepare.BACKUP;
        } else if (!dst.isDirectory() && (o.removeDestination() || (!o.attributesOnly()
                && ((o.preserves(dev.cpx.api.Attribute.LINKS) && dst.nlink() > 1) || (noDereference && !src.isRegular()))))) {
            prepare = Prepare.UNLINK;
        }
        Go go = new Go(prepare != Prepare.NONE, prepare, dst);
        return justCreatedSymlink(e, o, probe, dst, lstat, prepare, go);
    }

    /** GNU's last check before making the copy: never copy through a symlink this command line just made. */
    private static Decision justCreatedSymlink(Entry e, CopyOptions o, Probe probe, Stat dst, boolean haveLstat,
            Prepare prepare, Go go) {
        if (!e.operand() || o.backup() != BackupMode.NONE) {
            return go;
        }
        Stat link;
        if (haveLstat) {
            link = dst;
        } else if (prepare == Prepare.UNLINK) {
            // Looked at again after the removal: nothing there.
            return go;
        } else {
            Looked l = probe.destination(false);
            link = l.stat();
        }
        if (link != null && link.isSymlink() && probe.justCreated(link)) {
            return new Fail(Diagnostic.of("will not copy {0} through just-created symlink {1}", e.source(),
                    e.target()));
        }
        return go;
    }

    /** The {@code -i} question, in GNU's words: an unwritable destination is named with its mode. */
    static Diagnostic question(Path dst, Stat st, CopyOptions o, Probe probe) {
        if (st.isSymlink() || probe.writable()) {
            return Diagnostic.of("overwrite {0}?", dst);
        }
        String mode = String.format("%04o", st.mode() & 07777);
        String letters = modeLetters(st.mode());
        if (o.removeDestination() || o.force()) {
            return Diagnostic.of("replace {0}, overriding mode " + mode + " (" + letters + ")?", dst);
        }
        return Diagnostic.of("unwritable {0} (mode " + mode + ", " + letters + "); try anyway?", dst);
    }

    /** The nine permission letters of {@code ls -l} ({@code strmode}), set-uid, set-gid and sticky included. */
    static String modeLetters(int mode) {
        char[] c = "rwxrwxrwx".toCharArray();
        for (int i = 0; i < 9; i++) {
            if ((mode & (0400 >> i)) == 0) {
                c[i] = '-';
            }
        }
        c[2] = special(mode & 04000, mode & 0100, 's', c[2]);
        c[5] = special(mode & 02000, mode & 010, 's', c[5]);
        c[8] = special(mode & 01000, mode & 01, 't', c[8]);
        return new String(c);
    }

    private static char special(int bit, int exec, char letter, char current) {
        if (bit == 0) {
            return current;
        }
        return exec != 0 ? letter : Character.toUpperCase(letter);
    }

    /** Whether the last component of {@code p} is {@code .} or {@code ..} (no backup is made then). */
    static boolean isDotOrDotDot(Path p) {
        byte[] b = PathBytes.of(PathBytes.withoutTrailingSlashes(p));
        int start = b.length;
        while (start > 0 && b[start - 1] != '/') {
            start--;
        }
        byte[] last = Arrays.copyOfRange(b, start, b.length);
        return Arrays.equals(last, new byte[] {'.'}) || Arrays.equals(last, new byte[] {'.', '.'});
    }

    /** Whether links of the source are followed for this entry. */
    public static boolean followsLinks(CopyOptions o, boolean commandLine) {
        Dereference d = o.effectiveDereference();
        return d == Dereference.ALWAYS || (d == Dereference.COMMAND_LINE && commandLine);
    }
}
