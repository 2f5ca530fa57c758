package dev.cpx.core.copy;

import dev.cpx.core.fs.Effects;
import dev.cpx.core.fs.TempNames;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Set;

/**
 * Makes the {@link NewFile}s of one run: unnamed where the destination's file system allows (tried
 * until it once refuses), else under a temporary name; and, for {@code --resume}, takes up the
 * partial file an interrupted copy left.
 */
final class NewFiles {

    private static final Set<OpenOption> CREATE_TEMP = Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE,
            StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);
    private static final Set<OpenOption> CREATE_STAGED = Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE,
            StandardOpenOption.CREATE_NEW, LinkOption.NOFOLLOW_LINKS);
    private static final Set<OpenOption> CREATE_FINAL = Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW,
            LinkOption.NOFOLLOW_LINKS);
    private static final Set<OpenOption> CONTINUE_TEMP = Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS);

    private final Effects effects;
    /** False once the destination refused an unnamed file: then temporary names are used. */
    private volatile boolean unnamed = true;

    NewFiles(Effects effects) {
        this.effects = effects;
    }

    /**
     * Opens a new file that will become {@code target}, with permission bits {@code mode} (the umask
     * applies). Named when {@code resumable} or when the file system has no unnamed files; made
     * relative to {@code place}'s open directory when it is given and the file is made unnamed;
     * {@code staged}: {@code target} is in a tree made under a staging name (a plan's staged operand,
     * reached by path), so it is made under its own name. In a staged tree's open directory it is made
     * under its own name when that is in {@code naming}'s turn, else unnamed and named in its turn, as
     * in a directory that existed: so the copy's entries are made in the order GNU cp makes them even
     * when workers share a large directory (on ext4 a directory's size depends on that order).
     * {@code passesTurn}: the caller passes the turn on as soon as such a file is made ({@link
     * NewFile#madeInTurn}), so a turn a few entries away is waited for briefly ({@link Naming#awaitTurn});
     * else the turn is held until the file is complete, and is not waited for.
     */
    NewFile create(Path target, Place place, int mode, boolean resumable, boolean staged, Naming naming, boolean passesTurn)
            throws IOException {
        if (!resumable && staged && place == null) {
            return new NewFile(effects, effects.open(target, CREATE_STAGED, mode), target, 0, true);
        }
        if (!resumable && place != null && place.directories().staged()
                && (passesTurn ? naming.awaitTurn() : naming.inTurn())) {
            // Nothing in a staged tree is seen under its final path before the tree is complete: one
            // exclusive create under its own name, no naming after.
            return new NewFile(effects, effects.createFileAt(place.directories(), place.name(), mode & 0777), target, place);
        }
        if (!resumable && unnamed) {
            Optional<FileChannel> file;
            if (place != null) {
                file = effects.createUnnamedAt(place.directories(), mode & 0777);
                if (file.isPresent()) {
                    return new NewFile(effects, file.get(), place);
                }
            }
            Path dir = target.getParent() == null ? Path.of(".") : target.getParent();
            file = effects.createUnnamed(dir, mode & 0777);
            if (file.isPresent()) {
                return new NewFile(effects, file.get(), null, 0, false);
            }
            unnamed = false;
        }
        Path temp = TempNames.of(target);
        return new NewFile(effects, effects.open(temp, CREATE_TEMP, mode), temp, 0, false);
    }

    /**
     * A file made at once under its final name {@code target} (which must not exist), for a copy that
     * may never end: a FIFO or device read as data. The one kind of copy seen under its name before
     * it is complete, as it is with GNU cp; unlike GNU cp's, it is removed when the copy fails or is
     * interrupted.
     */
    NewFile createAtFinalName(Path target, int mode) throws IOException {
        return new NewFile(effects, effects.open(target, CREATE_FINAL, mode), target, 0, true);
    }

    /**
     * {@code --resume}: the partial file an interrupted copy left under {@code target}'s temporary
     * name, cut to the part that is trusted: all but its last {@link RangedCopy#WINDOW} bytes, when
     * the end of that part matches {@code source}. Empty when there is none, or it cannot be trusted
     * (then it is started anew).
     */
    Optional<NewFile> continuing(Path target, FileChannel source) throws IOException {
        Path temp = TempNames.of(target);
        FileChannel channel;
        try {
            channel = effects.open(temp, CONTINUE_TEMP, 0);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        // Its last bytes may have gaps (ranges copied at once, RangedCopy.WINDOW): only what lies
        // before them is trusted, once its end is seen to match the source.
        long size = channel.size();
        long trusted = Math.max(0, size - RangedCopy.WINDOW);
        int overlap = (int) Math.min(trusted, 64 << 10);
        if (size <= source.size() && (trusted == 0 || Verifier.sameRange(source, channel, trusted - overlap, overlap))) {
            channel.truncate(trusted);
            return Optional.of(new NewFile(effects, channel, temp, trusted, false));
        }
        channel.close();
        return Optional.empty();
    }
}
