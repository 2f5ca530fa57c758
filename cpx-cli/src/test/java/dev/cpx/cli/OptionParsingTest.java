package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.api.Attribute;
import dev.cpx.api.BackupMode;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.Dereference;
import dev.cpx.api.OverwritePolicy;
import dev.cpx.api.ReflinkMode;
import dev.cpx.api.TargetMode;
import dev.cpx.spi.SparseMode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The command line, parsed in this JVM (no process started): argument vectors to the options the
 * library gets ({@link CopyOptions}), and to GNU's usage messages. The same parsing as a run
 * ({@link Main#commandLine}, {@link Getopt}), without copying.
 */
class OptionParsingTest {

    private static final Set<Attribute> ALL = EnumSet.of(Attribute.MODE, Attribute.OWNERSHIP, Attribute.TIMESTAMPS,
            Attribute.LINKS, Attribute.XATTR);

    @BeforeAll
    static void straightQuotes() {
        ArgMatch.useCurlyQuotes(false);
    }

    @AfterAll
    static void quotesFromTheEnvironment() {
        ArgMatch.useCurlyQuotes(null);
    }

    /** What parsing {@code args} gave: the command (options applied), or the usage error as printed. */
    private record Parsed(CpxCommand command, String error) {
        CopyOptions options() {
            return command.control.applyTo(command.cp.toBuilder()).engine(command.engines.engine)
                    .jobs(command.engines.jobs()).build();
        }
    }

    private static Parsed parse(String... args) {
        CpxCommand command = new CpxCommand();
        StringWriter err = new StringWriter();
        CommandLine cmd = Main.commandLine(command, new PrintWriter(new StringWriter()), new PrintWriter(err, true),
                Path.of("/nonexistent/cpx.properties"));
        try {
            Getopt.Read read = Getopt.read(cmd.getCommandSpec(), args, false);
            command.operands = read.operands();
            cmd.parseArgs(read.options());
            if (read.error() != null) {
                throw read.error();
            }
            command.cp.validate();
            command.cp.toBuilder(); // as the command does before copying: the backup type is read here
            return new Parsed(command, null);
        } catch (ParameterException e) {
            try {
                cmd.getParameterExceptionHandler().handleParseException(e, args);
            } catch (Exception unexpected) {
                throw new AssertionError(unexpected);
            }
            return new Parsed(command, err.toString());
        } catch (RuntimeException e) {
            throw new AssertionError(e);
        }
    }

    static Stream<Arguments> options() {
        return Stream.of(
                ok(o -> o.recursive() && o.dereference() == Dereference.NEVER && o.preserve().equals(ALL), "-a"),
                ok(o -> o.recursive(), "-r"), ok(o -> o.recursive(), "-R"), ok(o -> o.recursive(), "--rec"),
                ok(o -> o.recursive() && o.dereference() == Dereference.COMMAND_LINE, "-rPLH"),
                ok(o -> o.dereference() == Dereference.NEVER, "-L", "-P"),
                ok(o -> o.dereference() == Dereference.NEVER && o.preserve().equals(EnumSet.of(Attribute.LINKS)), "-d"),
                ok(o -> o.preserve().equals(EnumSet.of(Attribute.MODE, Attribute.OWNERSHIP, Attribute.TIMESTAMPS)), "-p"),
                ok(o -> o.preserve().equals(EnumSet.of(Attribute.MODE, Attribute.OWNERSHIP, Attribute.TIMESTAMPS)), "--preserve"),
                // Attribute lists by unique prefix, as GNU's argmatch.
                ok(o -> o.preserve().equals(EnumSet.of(Attribute.LINKS)), "--preserve=link"),
                ok(o -> o.preserve().equals(EnumSet.of(Attribute.MODE, Attribute.TIMESTAMPS, Attribute.LINKS)), "--preserve=mo,ti,l"),
                ok(o -> o.preserve().equals(EnumSet.of(Attribute.XATTR, Attribute.OWNERSHIP)), "--preserve=x,o"),
                ok(o -> o.preserve().equals(ALL), "--preserve=a"),
                ok(o -> o.preserve().equals(EnumSet.of(Attribute.OWNERSHIP, Attribute.TIMESTAMPS, Attribute.LINKS, Attribute.XATTR))
                        && o.defaultModes(), "-a", "--no-preserve=mo"),
                ok(o -> o.preserve().equals(ALL) && !o.defaultModes(), "--no-preserve=mode", "--preserve=all"),
                ok(o -> o.preserve().isEmpty(), "-a", "--no-pres=all"),
                // Other values by prefix.
                ok(o -> o.sparse() == SparseMode.ALWAYS, "--sparse=al"),
                ok(o -> o.sparse() == SparseMode.NEVER, "--sparse=n"),
                ok(o -> o.sparse() == SparseMode.AUTO, "--sparse=au"),
                ok(o -> o.reflink() == ReflinkMode.ALWAYS, "--reflink=al"),
                ok(o -> o.reflink() == ReflinkMode.ALWAYS, "--reflink"),
                ok(o -> o.reflink() == ReflinkMode.NEVER, "--reflink=nev"),
                ok(o -> o.reflink() == ReflinkMode.AUTO, "--ref=au"),
                ok(o -> o.backup() == BackupMode.NUMBERED, "--backup=nu"),
                ok(o -> o.backup() == BackupMode.NUMBERED, "--backup=t"),
                ok(o -> o.backup() == BackupMode.SIMPLE, "--backup=ne"),
                ok(o -> o.backup() == BackupMode.SIMPLE, "--backup=s"),
                ok(o -> o.backup() == BackupMode.NONE, "--backup=of"),
                ok(o -> o.backup() == BackupMode.NONE, "--backup=no"), // none only: 'no' is no prefix of never, numbered
                ok(o -> o.backup() == BackupMode.EXISTING, "--backup=ex"),
                ok(o -> o.backup() == BackupMode.EXISTING && "~".equals(o.backupSuffix()), "-b"),
                ok(o -> o.backup() == BackupMode.EXISTING && ".bak".equals(o.backupSuffix()), "-S", ".bak"),
                ok(o -> o.backup() == BackupMode.EXISTING, "--backup", "none"), // a value only after '=': 'none' is an operand
                // The last of -i/-n wins; GNU abbreviations of GNU options stay GNU's.
                ok(o -> o.overwrite() == OverwritePolicy.NO_CLOBBER, "-i", "-n"),
                ok(o -> o.overwrite() == OverwritePolicy.ASK, "-n", "-i"),
                ok(o -> o.overwrite() == OverwritePolicy.NO_CLOBBER, "--no-c"),
                ok(o -> o.preserve().equals(EnumSet.of(Attribute.MODE)), "--pr=mode"),
                ok(o -> o.target() == TargetMode.DIRECTORY, "-t", "dir"),
                ok(o -> o.target() == TargetMode.DIRECTORY, "--target-directory=dir"),
                ok(o -> o.target() == TargetMode.NO_DIRECTORY, "-T"),
                ok(o -> o.force() && o.update() && o.removeDestination() && o.parents() && o.oneFileSystem()
                        && o.copyContents(), "-fux", "--remove-destination", "--parents", "--copy-contents"),
                // cpx's own.
                ok(o -> o.jobs() == 3, "-j", "3"), ok(o -> o.jobs() == 7, "--jobs=7"), ok(o -> o.jobs() == 2, "-j2"),
                ok(o -> "nio".equals(o.engine()), "--engine=nio"),
                ok(o -> o.excludes().equals(List.of("*.o", "tmp/")), "-e", "*.o", "--exclude=tmp/"),
                ok(o -> o.resume() && o.verify() && o.dryRun() && o.fsync(), "--resume", "--verify", "--dry-run", "--fsync"));
    }

    private static Arguments ok(Predicate<CopyOptions> expected, String... args) {
        return Arguments.of(List.of(args), expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("options")
    void argumentsGiveTheseCopyOptions(List<String> args, Predicate<CopyOptions> expected) {
        Parsed p = parse(args.toArray(String[]::new));
        assertEquals(null, p.error(), () -> args + " gave an error");
        CopyOptions o = p.options();
        assertTrue(expected.test(o), () -> args + " gave " + o);
    }

    @Test
    void progressAndSummaryTakePrefixesToo() {
        CpxCommand c = parse("--progress=al", "--summary=ne").command();
        assertEquals(OutputOptions.When.ALWAYS, c.display.progress);
        assertEquals(OutputOptions.When.NEVER, c.display.summary);
        assertEquals(OutputOptions.When.ALWAYS, parse("--progress").command().display.progress);
        assertEquals(OutputOptions.When.ALWAYS, parse("--summary").command().display.summary);
        assertTrue(parse("-q").command().display.quiet);
        assertFalse(parse("-v").command().display.json);
        assertTrue(parse("-v").command().cp.verbose);
        assertEquals(List.of("a", "b"), parse("a", "-r", "b").command().operands);
        assertEquals(List.of("-r", "b"), parse("--", "-r", "b").command().operands);
    }

    /** gnulib's set_simple_backup_suffix: the given suffix (-S, else the environment's) if it is a last component, else ~. */
    @ParameterizedTest(name = "-S {0}, SIMPLE_BACKUP_SUFFIX={1}: {2}")
    @MethodSource("suffixes")
    void backupSuffixIsChosenAsGnuChoosesIt(String given, String environment, String expected) {
        assertEquals(expected, CpOptions.simpleBackupSuffix(given, environment));
    }

    static Stream<Arguments> suffixes() {
        return Stream.of(
                Arguments.of(null, null, "~"), Arguments.of(".bak", null, ".bak"), Arguments.of(null, ".old", ".old"),
                Arguments.of(".bak", ".old", ".bak"), Arguments.of("", null, "~"), Arguments.of(null, "", "~"),
                Arguments.of("", ".old", "~"), Arguments.of("a/b", ".old", "~"), Arguments.of("/a", null, "~"),
                Arguments.of("/", null, "~"), Arguments.of("//", null, "~"), Arguments.of(null, "x/y", "~"),
                Arguments.of("x/", null, "x/"), Arguments.of("x//", null, "x//"), Arguments.of("=", null, "="),
                Arguments.of("-v", null, "-v"), Arguments.of(".", null, "."), Arguments.of("a/./", null, "~"));
    }

    /** getopt's reading: operands wherever they are, values that look like options, words that only look like options. */
    @Test
    void commandLineIsReadAsGetoptReadsIt() {
        assertEquals(".x", parse("-S", ".x", "a", "b").command().cp.suffix);
        assertEquals("-v", parse("-S", "-v", "a", "b").command().cp.suffix);
        assertEquals("--", parse("-S--", "a", "b").command().cp.suffix);
        assertEquals("=", parse("-S=", "a", "b").command().cp.suffix);
        assertEquals("--verbose", parse("--suf", "--verbose", "a", "b").command().cp.suffix);
        assertFalse(parse("--suf", "--verbose", "a", "b").command().cp.verbose);
        assertEquals("--", parse("-t", "--", "a").command().cp.targetDirectory);
        assertEquals(List.of("a", "-5"), parse("a", "--", "-5").command().operands);
        assertEquals(List.of("a", "b"), parse("-rv", "a", "b", "-u").command().operands);
        assertTrue(parse("-rv", "a", "b", "-u").command().cp.update);
        assertEquals(List.of("-", "b"), parse("-", "b").command().operands);
        assertTrue(parse("--path", "a", "d").command().cp.parents);
        assertTrue(parse("--pa", "a", "d").command().cp.parents);
        Getopt.Read posix = Getopt.read(Main.commandLine(new CpxCommand(), new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()), Path.of("/nonexistent/cpx.properties")).getCommandSpec(),
                new String[] {"-v", "a", "-r", "b"}, true);
        assertEquals(List.of("--verbose"), List.of(posix.options()));
        assertEquals(List.of("a", "-r", "b"), posix.operands());
    }

    static Stream<Arguments> errors() {
        String try_ = "Try 'cpx --help' for more information.\n";
        String backupList = """
                Valid arguments are:
                  - 'none', 'off'
                  - 'simple', 'never'
                  - 'existing', 'nil'
                  - 'numbered', 't'
                """;
        String attributeList = """
                Valid arguments are:
                  - 'mode'
                  - 'timestamps'
                  - 'ownership'
                  - 'links'
                  - 'context'
                  - 'xattr'
                  - 'all'
                """;
        String whenList = "Valid arguments are:\n  - 'auto'\n  - 'always'\n  - 'never'\n";
        return Stream.of(
                Arguments.of(List.of("--sparse=bogus"), "cpx: invalid argument 'bogus' for '--sparse'\n"
                        + "Valid arguments are:\n  - 'never'\n  - 'auto'\n  - 'always'\n" + try_),
                Arguments.of(List.of("--sparse="), "cpx: ambiguous argument '' for '--sparse'\n"
                        + "Valid arguments are:\n  - 'never'\n  - 'auto'\n  - 'always'\n" + try_),
                Arguments.of(List.of("--reflink=a"), "cpx: ambiguous argument 'a' for '--reflink'\n"
                        + "Valid arguments are:\n  - 'auto'\n  - 'always'\n  - 'never'\n" + try_),
                Arguments.of(List.of("--backup=n"), "cpx: ambiguous argument 'n' for 'backup type'\n" + backupList + try_),
                Arguments.of(List.of("--backup=x"), "cpx: invalid argument 'x' for 'backup type'\n" + backupList + try_),
                Arguments.of(List.of("--preserve=mo,,ti"), "cpx: ambiguous argument '' for '--preserve'\n" + attributeList + try_),
                Arguments.of(List.of("--preserve=q"), "cpx: invalid argument 'q' for '--preserve'\n" + attributeList + try_),
                Arguments.of(List.of("--no-preserve=bogus"), "cpx: invalid argument 'bogus' for '--no-preserve'\n" + attributeList + try_),
                Arguments.of(List.of("--progress=x"), "cpx: invalid argument 'x' for '--progress'\n" + whenList + try_),
                Arguments.of(List.of("--summary=a"), "cpx: ambiguous argument 'a' for '--summary'\n" + whenList + try_),
                Arguments.of(List.of("--bogus"), "cpx: unrecognized option '--bogus'\n" + try_),
                Arguments.of(List.of("-k"), "cpx: invalid option -- 'k'\n" + try_),
                Arguments.of(List.of("-5", "a", "b"), "cpx: invalid option -- '5'\n" + try_),
                Arguments.of(List.of("a", "b", "-1.5"), "cpx: invalid option -- '1'\n" + try_),
                Arguments.of(List.of("--verb=yes"), "cpx: option '--verbose' doesn't allow an argument\n" + try_),
                Arguments.of(List.of("--p=x"), "cpx: option '--p=x' is ambiguous; possibilities: '--parents' '--preserve'\n" + try_),
                Arguments.of(List.of("--bogus", "--sparse=x"), "cpx: unrecognized option '--bogus'\n" + try_),
                Arguments.of(List.of("--sparse=x", "--bogus"), "cpx: invalid argument 'x' for '--sparse'\n"
                        + "Valid arguments are:\n  - 'never'\n  - 'auto'\n  - 'always'\n" + try_),
                Arguments.of(List.of("-rvS"), "cpx: option requires an argument -- 'S'\n" + try_),
                Arguments.of(List.of("a", "-t"), "cpx: option requires an argument -- 't'\n" + try_),
                Arguments.of(List.of("--target-directory"), "cpx: option '--target-directory' requires an argument\n" + try_),
                Arguments.of(List.of("--ver"), "cpx: option '--ver' is ambiguous; possibilities: '--verbose' '--version'\n" + try_),
                Arguments.of(List.of("-l", "-s"), "cpx: cannot make both hard and symbolic links\n" + try_),
                Arguments.of(List.of("-n", "-b"), "cpx: options --backup and --no-clobber are mutually exclusive\n" + try_),
                Arguments.of(List.of("-j", "0"), "cpx: invalid number of jobs: '0' (expected 1 to 1024)\n" + try_),
                Arguments.of(List.of("-j", "many"), "cpx: invalid argument for option '--jobs': 'many' is not an int\n" + try_));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errors")
    void badArgumentsGiveGnuMessages(List<String> args, String expected) {
        assertEquals(expected, parse(args.toArray(String[]::new)).error());
    }

    @Test
    void quotesAreGnuQuotesOfTheLocale() {
        assertTrue(ArgMatch.curlyQuotes(Map.of("LANG", "C.UTF-8")));
        assertTrue(ArgMatch.curlyQuotes(Map.of("LC_ALL", "C.utf8", "LANG", "C")));
        assertFalse(ArgMatch.curlyQuotes(Map.of("LC_ALL", "C", "LANG", "C.UTF-8")));
        assertFalse(ArgMatch.curlyQuotes(Map.of()));
        assertFalse(ArgMatch.curlyQuotes(Map.of("LANG", "POSIX")));
        assertEquals("\u2018a\\\\b\u2019", ArgMatch.quote("a\\b", true));
        assertEquals("'a\\nb'", ArgMatch.quote("a\nb", false));
    }
}
