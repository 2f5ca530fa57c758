package dev.cpx.cli;

import dev.cpx.api.Attribute;
import dev.cpx.api.BackupMode;
import dev.cpx.api.CopyMode;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.Dereference;
import dev.cpx.api.OverwritePolicy;
import dev.cpx.api.ReflinkMode;
import dev.cpx.api.TargetMode;
import dev.cpx.spi.SparseMode;
import java.util.EnumSet;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * GNU cp's options, with GNU's semantics: the last of {@code -P/-L/-H} wins, the last of
 * {@code -i/-n} wins, {@code -a} is {@code -dR --preserve=all}.
 */
public final class CpOptions {

    @Spec(Spec.Target.MIXEE)
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

    @Option(names = {"-r", "-R", "--recursive"}, description = "Copy directories recursively.")
    void setRecursive(boolean v) {
        recursive = v;
    }

    @Option(names = {"-a", "--archive"}, description = "Same as -dR --preserve=all.")
    void setArchive(boolean v) {
        recursive = true;
        dereference = Dereference.NEVER;
        preserve.addAll(EnumSet.of(Attribute.MODE, Attribute.OWNERSHIP, Attribute.TIMESTAMPS, Attribute.LINKS, Attribute.XATTR));
    }

    @Option(names = "-d", description = "Same as --no-dereference --preserve=links.")
    void setNoDerefPreserveLinks(boolean v) {
        dereference = Dereference.NEVER;
        preserve.add(Attribute.LINKS);
    }

    @Option(names = {"-P", "--no-dereference"}, description = "Never follow symbolic links in SOURCE.")
    void setNoDereference(boolean v) {
        dereference = Dereference.NEVER;
    }

    @Option(names = {"-L", "--dereference"}, description = "Always follow symbolic links in SOURCE.")
    void setDereference(boolean v) {
        dereference = Dereference.ALWAYS;
    }

    @Option(names = "-H", description = "Follow command-line symbolic links in SOURCE.")
    void setDereferenceCommandLine(boolean v) {
        dereference = Dereference.COMMAND_LINE;
    }

    @Option(names = "-p", description = "Same as --preserve=mode,ownership,timestamps.")
    void setPreserveDefault(boolean v) {
        preserve.addAll(EnumSet.of(Attribute.MODE, Attribute.OWNERSHIP, Attribute.TIMESTAMPS));
    }

    @Option(names = "--preserve", arity = "0..1", paramLabel = "ATTR_LIST",
            description = "Preserve the specified attributes (default: mode,ownership,timestamps); "
                    + "also links, xattr, context, all.")
    void setPreserve(String list) {
        EnumSet<Attribute> added = attributes("--preserve", list, "mode,ownership,timestamps");
        preserve.addAll(added);
        if (added.contains(Attribute.MODE)) {
            defaultModes = false;
        }
    }

    /** --no-preserve=mode: new entries get default permissions, not the source's. */
    boolean defaultModes;

    @Option(names = "--no-preserve", paramLabel = "ATTR_LIST", description = "Don't preserve the specified attributes.")
    void setNoPreserve(String list) {
        EnumSet<Attribute> removed = attributes("--no-preserve", list, null);
        preserve.removeAll(removed);
        if (removed.contains(Attribute.MODE)) {
            defaultModes = true;
        }
    }

    @Option(names = {"-n", "--no-clobber"}, description = "Do not overwrite an existing file (overrides a previous -i).")
    void setNoClobber(boolean v) {
        overwrite = OverwritePolicy.NO_CLOBBER;
    }

    @Option(names = {"-i", "--interactive"}, description = "Prompt before overwrite (overrides a previous -n).")
    void setInteractive(boolean v) {
        overwrite = OverwritePolicy.ASK;
    }

    @Option(names = {"-f", "--force"},
            description = "If an existing destination file cannot be opened, remove it and try again.")
    boolean force;

    @Option(names = {"-u", "--update"},
            description = "Copy only when the SOURCE file is newer than the destination file or when the destination file is missing.")
    boolean update;

    @Option(names = {"-t", "--target-directory"}, paramLabel = "DIRECTORY",
            description = "Copy all SOURCE arguments into DIRECTORY.")
    void setTargetDirectory(String dir) {
        targetDirectory = dir;
    }

    @Option(names = {"-T", "--no-target-directory"}, description = "Treat DEST as a normal file.")
    boolean noTargetDirectory;

    /** Accepted for compatibility; GNU cp 9.1 keeps the slashes anyway, and so does cpx. */
    @Option(names = "--strip-trailing-slashes", description = "Remove any trailing slashes from each SOURCE argument.")
    boolean stripTrailingSlashes;

    @Option(names = "--sparse", paramLabel = "WHEN", description = "Control creation of sparse files: auto, always, never.")
    void setSparse(String when) {
        sparse = switch (when) {
            case "auto" -> SparseMode.AUTO;
            case "always" -> SparseMode.ALWAYS;
            case "never" -> SparseMode.NEVER;
            default -> throw invalidArgument("--sparse", when, "'never', 'auto', 'always'");
        };
    }

    @Option(names = "--reflink", arity = "0..1", paramLabel = "WHEN",
            description = "Control clone/CoW copies: auto (default), always, never.")
    void setReflink(String when) {
        reflink = switch (when) {
            case ArgNormalizer.DEFAULT_VALUE, "always" -> ReflinkMode.ALWAYS;
            case "auto" -> ReflinkMode.AUTO;
            case "never" -> ReflinkMode.NEVER;
            default -> throw invalidArgument("--reflink", when, "'auto', 'always', 'never'");
        };
    }

    @Option(names = "--copy-contents", description = "Copy contents of special files when recursive.")
    boolean copyContents;

    @Option(names = "--backup", arity = "0..1", paramLabel = "CONTROL",
            description = "Make a backup of each existing destination file: none/off, numbered/t, existing/nil, simple/never.")
    void setBackup(String control) {
        backupControl = control;
    }

    @Option(names = "-b", description = "Like --backup but does not accept an argument.")
    void setBackupDefault(boolean v) {
        backupControl = ArgNormalizer.DEFAULT_VALUE;
    }

    @Option(names = {"-S", "--suffix"}, paramLabel = "SUFFIX", description = "Override the usual backup suffix.")
    void setSuffix(String value) {
        suffix = value;
        if (backupControl == null) {
            backupControl = ArgNormalizer.DEFAULT_VALUE;
        }
    }

    @Option(names = {"-l", "--link"}, description = "Hard link files instead of copying.")
    void setLink(boolean v) {
        hardLinks = true;
    }

    @Option(names = {"-s", "--symbolic-link"}, description = "Make symbolic links instead of copying.")
    void setSymbolicLink(boolean v) {
        symbolicLinks = true;
    }

    @Option(names = "--attributes-only", description = "Don't copy the file data, just the attributes.")
    void setAttributesOnly(boolean v) {
        attributesOnly = true;
    }

    @Option(names = "--remove-destination",
            description = "Remove each existing destination file before attempting to open it (contrast with --force).")
    boolean removeDestination;

    @Option(names = "--parents", description = "Use full source file name under DIRECTORY.")
    boolean parents;

    @Option(names = {"-x", "--one-file-system"}, description = "Stay on this file system.")
    boolean oneFileSystem;

    @Option(names = "-Z", description = "Set SELinux security context of destination file to default type.")
    boolean defaultContext;

    @Option(names = "--context", arity = "0..1", paramLabel = "CTX",
            description = "Like -Z, or if CTX is specified then set the SELinux or SMACK security context to CTX.")
    void setContext(String ctx) {
        contextValue = !ArgNormalizer.DEFAULT_VALUE.equals(ctx);
    }

    @Option(names = {"-v", "--verbose"}, description = "Explain what is being done.")
    boolean verbose;

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
        if (ArgNormalizer.DEFAULT_VALUE.equals(backupControl)) {
            String env = System.getenv("VERSION_CONTROL");
            return env == null || env.isEmpty() ? BackupMode.EXISTING : backupType("$VERSION_CONTROL", env);
        }
        return backupType("backup type", backupControl);
    }

    private BackupMode backupType(String what, String value) {
        String[] names = {"none", "off", "simple", "never", "existing", "nil", "numbered", "t"};
        BackupMode[] modes = {BackupMode.NONE, BackupMode.NONE, BackupMode.SIMPLE, BackupMode.SIMPLE,
            BackupMode.EXISTING, BackupMode.EXISTING, BackupMode.NUMBERED, BackupMode.NUMBERED};
        BackupMode match = null;
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(value)) {
                return modes[i];
            }
            if (!value.isEmpty() && names[i].startsWith(value)) {
                if (match != null && match != modes[i]) {
                    throw new ParameterException(spec.commandLine(), "ambiguous argument "
                            + dev.cpx.api.ShellQuote.quote(value) + " for '" + what + "'; valid arguments are "
                            + "'none', 'off', 'simple', 'never', 'existing', 'nil', 'numbered', 't'");
                }
                match = modes[i];
            }
        }
        if (match == null) {
            throw invalidArgument(what, value, "'none', 'off', 'simple', 'never', 'existing', 'nil', 'numbered', 't'");
        }
        return match;
    }

    /** The backup suffix: -S, else SIMPLE_BACKUP_SUFFIX, else {@code ~}. */
    String backupSuffix() {
        if (suffix != null) {
            return suffix;
        }
        String env = System.getenv("SIMPLE_BACKUP_SUFFIX");
        return env == null || env.isEmpty() || env.contains("/") ? "~" : env;
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
                .removeDestination(removeDestination)
                .parents(parents)
                .oneFileSystem(oneFileSystem)
                .defaultModes(defaultModes);
    }

    private EnumSet<Attribute> attributes(String option, String list, String defaultList) {
        String value = ArgNormalizer.DEFAULT_VALUE.equals(list) ? defaultList : list;
        if (value == null) {
            throw new ParameterException(spec.commandLine(), "option '" + option + "' requires an argument");
        }
        EnumSet<Attribute> set = EnumSet.noneOf(Attribute.class);
        for (String word : value.split(",", -1)) {
            switch (word.toLowerCase(Locale.ROOT)) {
                case "mode" -> set.add(Attribute.MODE);
                case "ownership" -> set.add(Attribute.OWNERSHIP);
                case "timestamps" -> set.add(Attribute.TIMESTAMPS);
                case "links" -> set.add(Attribute.LINKS);
                case "xattr" -> set.add(Attribute.XATTR);
                case "context" -> {
                    set.add(Attribute.CONTEXT);
                    contextRequested = "--preserve".equals(option);
                }
                case "all" -> set.addAll(EnumSet.of(Attribute.MODE, Attribute.OWNERSHIP, Attribute.TIMESTAMPS,
                        Attribute.LINKS, Attribute.XATTR));
                default -> throw invalidArgument(option, word,
                        "'mode', 'timestamps', 'ownership', 'links', 'context', 'xattr', 'all'");
            }
        }
        return set;
    }

    private ParameterException invalidArgument(String option, String value, String valid) {
        return new ParameterException(spec.commandLine(), "invalid argument " + dev.cpx.api.ShellQuote.quote(value)
                + " for '" + option + "'; valid arguments are " + valid);
    }
}
