package dev.cpx.cli;

import dev.cpx.api.Attribute;
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
        preserve.addAll(attributes("--preserve", list, "mode,ownership,timestamps"));
    }

    @Option(names = "--no-preserve", paramLabel = "ATTR_LIST", description = "Don't preserve the specified attributes.")
    void setNoPreserve(String list) {
        preserve.removeAll(attributes("--no-preserve", list, null));
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

    @Option(names = {"-v", "--verbose"}, description = "Explain what is being done.")
    boolean verbose;

    /** The options as the library takes them. */
    CopyOptions.Builder toBuilder() {
        TargetMode target = targetDirectory != null ? TargetMode.DIRECTORY
                : noTargetDirectory ? TargetMode.NO_DIRECTORY : TargetMode.AUTO;
        return CopyOptions.builder()
                .recursive(recursive)
                .dereference(dereference)
                .preserve(preserve)
                .overwrite(overwrite)
                .update(update)
                .force(force)
                .target(target)
                .sparse(sparse)
                .reflink(reflink)
                .copyContents(copyContents);
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
                case "context" -> set.add(Attribute.CONTEXT);
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
