package dev.cpx.cli;

import dev.cpx.api.Attribute;
import dev.cpx.api.BackupMode;
import dev.cpx.api.CopyMode;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.Dereference;
import dev.cpx.api.OverwritePolicy;
import dev.cpx.api.ReflinkMode;
import dev.cpx.api.TargetMode;
import dev.cpx.api.XattrFailures;
import dev.cpx.spi.SparseMode;
import java.util.EnumSet;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * GNU cp's options, with GNU's semantics: the last of {@code -P/-L/-H} wins, the last of
 * {@code -i/-n} wins, {@code -a} is {@code -dR --preserve=all}.
 */
public final class CpOptions implements Specs.Target {

    /** The command these options belong to (for usage errors); set by {@link CpxCommand}. */
    CommandSpec spec;

    boolean recursive;
    Dereference dereference;
    final EnumSet<Attribute> preserve = EnumSet.noneOf(Attribute.class);
    OverwritePolicy overwrite = OverwritePolicy.OVERWRITE;
    SparseMode sparse = SparseMode.AUTO;
    ReflinkMode reflink = ReflinkMode.AUTO;
    String targetDirectory;
    /** The --backup control as given (null: none asked; DEFAULT_VALUE: bare --backup or -b). */
    String backupControl;
    String suffix;
    boolean hardLinks;
    boolean symbolicLinks;
    boolean attributesOnly;
    /** Whether SELinux context preservation was asked for explicitly (--preserve=context). */
    boolean contextRequested;
    /** --context=CTX given with a value. */
    boolean contextValue;
    /** --no-preserve=mode: new entries get default permissions, not the source's. */
    boolean defaultModes;
    boolean force;
    boolean update;
    boolean noTargetDirectory;
    /** Accepted for compatibility; GNU cp 9.1 keeps the slashes anyway, and so does cpx. */
    boolean stripTrailingSlashes;
    boolean copyContents;
    boolean removeDestination;
    boolean parents;
    boolean oneFileSystem;
    boolean defaultContext;
    boolean verbose;

    /** GNU's words for the values of {@code --sparse}, {@code --reflink}, {@code --backup} and the attribute lists, in GNU's order. */
    static final ArgMatch<SparseMode> SPARSE = new ArgMatch<>("--sparse",
            new String[] {"never", "auto", "always"}, new SparseMode[] {SparseMode.NEVER, SparseMode.AUTO, SparseMode.ALWAYS});
    static final ArgMatch<ReflinkMode> REFLINK = new ArgMatch<>("--reflink",
            new String[] {"auto", "always", "never"}, new ReflinkMode[] {ReflinkMode.AUTO, ReflinkMode.ALWAYS, ReflinkMode.NEVER});
    static final ArgMatch<BackupMode> BACKUP = new ArgMatch<>("backup type",
            new String[] {"none", "off", "simple", "never", "existing", "nil", "numbered", "t"},
            new BackupMode[] {BackupMode.NONE, BackupMode.NONE, BackupMode.SIMPLE, BackupMode.SIMPLE,
                BackupMode.EXISTING, BackupMode.EXISTING, BackupMode.NUMBERED, BackupMode.NUMBERED});
    /** Attribute words; {@code all} is {@code null} (every attribute but context). */
    private static final String[] ATTRIBUTE_WORDS = {"mode", "timestamps", "ownership", "links", "context", "xattr", "all"};
    private static final String[] ATTRIBUTE_MEANINGS = ATTRIBUTE_WORDS;

    /** Adds these options to the command's model {@code s}, in code (see {@link Specs}); GNU's order and words. */
    void addTo(CommandSpec s) {
        s.addOption(Specs.flag(this, "Copy directories recursively.", "-r", "-R", "--recursive"));
        s.addOption(Specs.flag(this, "Same as -dR --preserve=all.", "-a", "--archive"));
        s.addOption(Specs.flag(this, "Same as --no-dereference --preserve=links.", "-d"));
        s.addOption(Specs.flag(this, "Never follow symbolic links in SOURCE.", "-P", "--no-dereference"));
        s.addOption(Specs.flag(this, "Always follow symbolic links in SOURCE.", "-L", "--dereference"));
        s.addOption(Specs.flag(this, "Follow command-line symbolic links in SOURCE.", "-H"));
        s.addOption(Specs.flag(this, "Same as --preserve=mode,ownership,timestamps.", "-p"));
        s.addOption(Specs.optional(this, "ATTR_LIST", "Preserve the specified attributes (default: mode,ownership,timestamps); "
                + "also links, xattr, context, all.", "--preserve"));
        s.addOption(Specs.value(this, "ATTR_LIST", "Don't preserve the specified attributes.", "--no-preserve"));
        s.addOption(Specs.flag(this, "Do not overwrite an existing file (overrides a previous -i).", "-n", "--no-clobber"));
        s.addOption(Specs.flag(this, "Prompt before overwrite (overrides a previous -n).", "-i", "--interactive"));
        s.addOption(Specs.flag(this, "If an existing destination file cannot be opened, remove it and try again.", "-f", "--force"));
        s.addOption(Specs.flag(this, "Copy only when the SOURCE file is newer than the destination file or when the "
                + "destination file is missing.", "-u", "--update"));
        s.addOption(Specs.value(this, "DIRECTORY", "Copy all SOURCE arguments into DIRECTORY.", "-t", "--target-directory"));
        s.addOption(Specs.flag(this, "Treat DEST as a normal file.", "-T", "--no-target-directory"));
        s.addOption(Specs.flag(this, "Remove any trailing slashes from each SOURCE argument.", "--strip-trailing-slashes"));
        s.addOption(Specs.value(this, "WHEN", "Control creation of sparse files: auto, always, never.", "--sparse"));
        s.addOption(Specs.optional(this, "WHEN", "Control clone/CoW copies: auto (default), always, never.", "--reflink"));
        s.addOption(Specs.flag(this, "Copy contents of special files when recursive.", "--copy-contents"));
        s.addOption(Specs.optional(this, "CONTROL", "Make a backup of each existing destination file: none/off, numbered/t, "
                + "existing/nil, simple/never.", "--backup"));
        s.addOption(Specs.flag(this, "Like --backup but does not accept an argument.", "-b"));
        s.addOption(Specs.value(this, "SUFFIX", "Override the usual backup suffix.", "-S", "--suffix"));
        s.addOption(Specs.flag(this, "Hard link files instead of copying.", "-l", "--link"));
        s.addOption(Specs.flag(this, "Make symbolic links instead of copying.", "-s", "--symbolic-link"));
        s.addOption(Specs.flag(this, "Don't copy the file data, just the attributes.", "--attributes-only"));
        s.addOption(Specs.flag(this, "Remove each existing destination file before attempting to open it (contrast with --force).",
                "--remove-destination"));
        s.addOption(Specs.flag(this, "Use full source file name under DIRECTORY.", "--parents"));
        s.addOption(Specs.alias(this, "--parents", "--path")); // GNU cp 9.1's old name, still accepted
        s.addOption(Specs.flag(this, "Stay on this file system.", "-x", "--one-file-system"));
        s.addOption(Specs.flag(this, "Set SELinux security context of destination file to default type.", "-Z"));
        s.addOption(Specs.optional(this, "CTX", "Like -Z, or if CTX is specified then set the SELinux or SMACK security "
                + "context to CTX.", "--context"));
        s.addOption(Specs.flag(this, "Explain what is being done.", "-v", "--verbose"));
    }

    /** One occurrence of an option, in command-line order: GNU's rules for each. */
    @Override
    public void set(String key, Object value) {
        String text = value instanceof String v ? v : null;
        switch (key) {
            case "--recursive" -> recursive = true;
            case "--archive" -> {
                reducedDiagnostics = true;
                recursive = true;
                dereference = Dereference.NEVER;
                preserve.addAll(EnumSet.of(Attribute.MODE, Attribute.OWNERSHIP, Attribute.TIMESTAMPS, Attribute.LINKS, Attribute.XATTR));
            }
            case "-d" -> {
                dereference = Dereference.NEVER;
                preserve.add(Attribute.LINKS);
            }
            case "--no-dereference" -> dereference = Dereference.NEVER;
            case "--dereference" -> dereference = Dereference.ALWAYS;
            case "-H" -> dereference = Dereference.COMMAND_LINE;
            case "-p" -> preserve.addAll(EnumSet.of(Attribute.MODE, Attribute.OWNERSHIP, Attribute.TIMESTAMPS));
            case "--preserve" -> {
                EnumSet<Attribute> added = attributes("--preserve", text, "mode,ownership,timestamps");
                preserve.addAll(added);
                if (added.contains(Attribute.MODE)) {
                    defaultModes = false;
                }
            }
            case "--no-preserve" -> {
                EnumSet<Attribute> removed = attributes("--no-preserve", text, null);
                preserve.removeAll(removed);
                if (removed.contains(Attribute.MODE)) {
                    defaultModes = true;
                }
            }
            case "--no-clobber" -> overwrite = OverwritePolicy.NO_CLOBBER;
            case "--interactive" -> overwrite = OverwritePolicy.ASK;
            case "--force" -> force = true;
            case "--update" -> update = true;
            case "--target-directory" -> targetDirectory = text;
            case "--no-target-directory" -> noTargetDirectory = true;
            case "--strip-trailing-slashes" -> stripTrailingSlashes = true;
            case "--sparse" -> sparse = SPARSE.match(spec.commandLine(), text);
            case "--reflink" -> reflink = Getopt.DEFAULT_VALUE.equals(text) ? ReflinkMode.ALWAYS
                    : REFLINK.match(spec.commandLine(), text);
            case "--copy-contents" -> copyContents = true;
            case "--backup" -> {
                if (Getopt.DEFAULT_VALUE.equals(text)) {
                    backupsWanted();
                } else {
                    backupControl = text;
                }
            }
            case "-b" -> backupsWanted();
            case "--suffix" -> {
                suffix = text;
                backupsWanted();
            }
            case "--link" -> hardLinks = true;
            case "--symbolic-link" -> symbolicLinks = true;
            case "--attributes-only" -> attributesOnly = true;
            case "--remove-destination" -> removeDestination = true;
            case "--parents" -> parents = true;
            case "--one-file-system" -> oneFileSystem = true;
            case "-Z" -> defaultContext = true;
            case "--context" -> contextValue = !Getopt.DEFAULT_VALUE.equals(text);
            case "--verbose" -> verbose = true;
            default -> throw new IllegalStateException("no such option: " + key);
        }
    }


    /** GNU's checks of option combinations, before anything is copied; usage errors. */
    void validate() {
        if (hardLinks && symbolicLinks) {
            throw new ParameterException(spec.commandLine(), "cannot make both hard and symbolic links");
        }
        if (backupControl != null && overwrite == OverwritePolicy.NO_CLOBBER) {
            throw new ParameterException(spec.commandLine(), "options --backup and --no-clobber are mutually exclusive");
        }
    }

    /** The backup mode from --backup/-b/-S and VERSION_CONTROL, as GNU reads them. */
    BackupMode backupMode() {
        if (backupControl == null) {
            return BackupMode.NONE;
        }
        // GNU's xget_version: an empty --backup= is no control at all, so VERSION_CONTROL decides.
        if (Getopt.DEFAULT_VALUE.equals(backupControl) || backupControl.isEmpty()) {
            String env = System.getenv("VERSION_CONTROL");
            return env == null || env.isEmpty() ? BackupMode.EXISTING : backupType("$VERSION_CONTROL", env);
        }
        return backupType("backup type", backupControl);
    }

    private BackupMode backupType(String what, String value) {
        return (what.equals("backup type") ? BACKUP : BACKUP.as(what)).match(spec.commandLine(), value);
    }

    /** The backup suffix: -S, else SIMPLE_BACKUP_SUFFIX, else {@code ~} ({@link #simpleBackupSuffix}). */
    String backupSuffix() {
        return simpleBackupSuffix(suffix, System.getenv("SIMPLE_BACKUP_SUFFIX"));
    }

    /**
     * GNU's choice of the simple backup suffix (gnulib's {@code set_simple_backup_suffix}): the
     * one given ({@code -S}; else the environment's), if it is not empty and a file name's last
     * component as it stands (no leading {@code /}, no {@code /} before another character: {@code x/}
     * is one, {@code a/b} and {@code /a} are not); {@code ~} otherwise, also for a bad {@code -S}
     * where the environment has a good one.
     */
    static String simpleBackupSuffix(String given, String environment) {
        String s = given != null ? given : environment;
        if (s == null || s.isEmpty() || s.charAt(0) == '/') {
            return "~";
        }
        for (int i = 1; i < s.length(); i++) {
            if (s.charAt(i) != '/' && s.charAt(i - 1) == '/') {
                return "~";
            }
        }
        return s;
    }

    /**
     * Backups are made, with the control given before if any (else the default): GNU keeps the last
     * value given, so {@code cp --backup=numbered -b} makes numbered backups.
     */
    private void backupsWanted() {
        if (backupControl == null) {
            backupControl = Getopt.DEFAULT_VALUE;
        }
    }

    CopyMode copyMode() {
        if (hardLinks) {
            return CopyMode.HARD_LINK;
        }
        if (symbolicLinks) {
            return CopyMode.SYMBOLIC_LINK;
        }
        return attributesOnly ? CopyMode.ATTRIBUTES_ONLY : CopyMode.DATA;
    }

    /** The options as the library takes them. */
    CopyOptions.Builder toBuilder() {
        TargetMode target = targetDirectory != null ? TargetMode.DIRECTORY
                : noTargetDirectory ? TargetMode.NO_DIRECTORY : TargetMode.AUTO;
        EnumSet<Attribute> kept = EnumSet.copyOf(preserve.isEmpty() ? EnumSet.noneOf(Attribute.class) : preserve);
        kept.remove(Attribute.CONTEXT);
        return CopyOptions.builder()
                .recursive(recursive)
                .dereference(dereference)
                .preserve(kept)
                .overwrite(overwrite)
                .update(update)
                .force(force)
                .target(target)
                .sparse(sparse)
                .reflink(reflink)
                .copyContents(copyContents)
                .backup(backupMode())
                .backupSuffix(backupSuffix())
                .mode(copyMode())
                .attributesOnly(attributesOnly)
                .removeDestination(removeDestination)
                .parents(parents)
                .oneFileSystem(oneFileSystem)
                .defaultModes(defaultModes)
                // GNU cp writes through a dangling destination symlink when POSIXLY_CORRECT is set.
                .writeThroughDanglingSymlinks(System.getenv("POSIXLY_CORRECT") != null)
                .xattrFailures(xattrRequired ? XattrFailures.REQUIRED
                        : reducedDiagnostics && !attributesOnly ? XattrFailures.QUIET : XattrFailures.REPORTED);
    }

    /** {@code --preserve=xattr} named: extended attributes that cannot be copied fail the copy. */
    private boolean xattrRequired;
    /** {@code -a}: GNU's reduced diagnostics (failures to copy extended attributes are not reported). */
    private boolean reducedDiagnostics;

    private EnumSet<Attribute> attributes(String option, String list, String defaultList) {
        String value = Getopt.DEFAULT_VALUE.equals(list) ? defaultList : list;
        if (value == null) {
            throw new ParameterException(spec.commandLine(), "option '" + option + "' requires an argument");
        }
        ArgMatch<String> words = new ArgMatch<>(option, ATTRIBUTE_WORDS, ATTRIBUTE_MEANINGS);
        EnumSet<Attribute> set = EnumSet.noneOf(Attribute.class);
        for (String word : value.split(",", -1)) {
            switch (words.match(spec.commandLine(), word)) {
                case "mode" -> set.add(Attribute.MODE);
                case "ownership" -> set.add(Attribute.OWNERSHIP);
                case "timestamps" -> set.add(Attribute.TIMESTAMPS);
                case "links" -> set.add(Attribute.LINKS);
                case "xattr" -> {
                    set.add(Attribute.XATTR);
                    // Named on its own, failures to copy them fail the copy (GNU's require_preserve_xattr).
                    xattrRequired = "--preserve".equals(option);
                }
                case "context" -> {
                    set.add(Attribute.CONTEXT);
                    contextRequested = "--preserve".equals(option);
                }
                default -> set.addAll(EnumSet.of(Attribute.MODE, Attribute.OWNERSHIP, Attribute.TIMESTAMPS,
                        Attribute.LINKS, Attribute.XATTR));
            }
        }
        return set;
    }
}
