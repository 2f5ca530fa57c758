package dev.cpx.cli;

import dev.cpx.api.ShellQuote;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;

/** Entry point of the {@code cpx} command. */
public final class Main {

    private static final String PICOCLI_CONVERTER_EXCLUDES = "picocli.converters.excludes";

    private Main() {
    }

    public static void main(String[] args) {
        Thread.setDefaultUncaughtExceptionHandler(OneLine.INSTANCE);
        if (mayCopy(args)) {
            // JNA's start on the other CPU while picocli parses the command line.
            dev.cpx.api.EngineRegistry.prepareExtras();
        }
        System.exit(run(RawArgs.of(args)));
    }

    /** False for the commands that never load the native support: --version, --help (-V, -h). */
    static boolean mayCopy(String[] args) {
        for (String a : args) {
            if (a.equals("--")) {
                break;
            }
            if (a.equals("--version") || a.equals("--help") || a.equals("-V") || a.equals("-h")) {
                return false;
            }
        }
        return args.length > 0;
    }

    /** The name messages start with: what the program was invoked as ({@code cp} when linked as cp). */
    static String programName() {
        String name = System.getProperty("cpx.program");
        return name == null || name.isBlank() ? "cpx" : name;
    }

    /**
     * Runs the command and returns the exit status: 1 where an answer could not be read or its
     * output could not be written, as GNU cp's ({@code cp: error closing file}, {@code cp: write
     * error: REASON}; silently where the reader went away, for which GNU cp dies by SIGPIPE).
     */
    static int run(String[] args) {
        StandardInput stdin = new StandardInput();
        System.setIn(stdin);
        StandardOutput stdout = new StandardOutput();
        PrintWriter out = new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8));
        PrintWriter err = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.err), StandardCharsets.UTF_8), true);
        int status = run(args, out, err);
        if (stdin.failure() != null) {
            err.println(programName() + ": " + stdin.failure());
            status = 1;
        }
        String failure = stdout.failure();
        if (failure != null) {
            if (!stdout.brokenPipe()) {
                err.println(programName() + ": write error: " + failure);
            }
            status = 1;
        }
        err.flush();
        return status;
    }

    private static int run(String[] args, PrintWriter out, PrintWriter err) {
        try {
            if (args.length > 0 && args[0].equals("--version")) {
                // GNU's getopt acts on --version where it meets it, before any word after it: as the first
                // word nothing else is read, so the command's model (a third of this command's time) is not built.
                return printVersion(out, new VersionProvider().getVersion());
            }
            CommandLine cmd = commandLine(out, err);
            Getopt.Read read = Getopt.read(cmd.getCommandSpec(), args, System.getenv("POSIXLY_CORRECT") != null);
            ((CpxCommand) cmd.getCommandSpec().userObject()).operands = read.operands();
            if (read.error() != null) {
                // The options before the error first: a bad value there is what GNU's loop reports.
                try {
                    cmd.parseArgs(read.options());
                } catch (ParameterException e) {
                    return cmd.getParameterExceptionHandler().handleParseException(e, args);
                }
                return cmd.getParameterExceptionHandler().handleParseException(read.error(), args);
            }
            String away = UnnamedWorkingDirectory.why();
            if (away != null) {
                String relative = UnnamedWorkingDirectory.firstRelative(read.options(), read.operands());
                if (relative != null) {
                    err.println(programName() + ": cannot use " + ShellQuote.quote(relative) + ": " + away);
                    return 1;
                }
            }
            return cmd.execute(read.options());
        } catch (Exception | Error e) {
            // An Error too (a JDK class that could not initialize: no descriptor left under a low
            // `ulimit -n`, no memory): one line, as any failure, the trace only where asked.
            err.println(programName() + ": " + describe(e));
            if (debugRequested()) {
                e.printStackTrace(err);
            }
            return 1;
        } finally {
            out.flush();
            err.flush();
        }
    }

    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        return commandLine(new CpxCommand(), out, err, ConfigDefaults.location(System.getenv()));
    }

    /** The command line of {@code command}, set up as cpx runs it, with the defaults file {@code config}. */
    static CommandLine commandLine(CpxCommand command, PrintWriter out, PrintWriter err, java.nio.file.Path config) {
        // picocli looks up converters for java.sql, java.time and java.nio.file types by reflection at
        // every start (Class.forName, which initializes them, and getDeclaredMethod); cpx's options are
        // strings, booleans and numbers. ".*" excludes exactly those (the others are registered
        // directly) and is the cheapest pattern to compile, which picocli does for each of them.
        if (System.getProperty(PICOCLI_CONVERTER_EXCLUDES) == null) {
            System.setProperty(PICOCLI_CONVERTER_EXCLUDES, ".*");
        }
        CommandLine cmd = new CommandLine(command.spec(), LazyFactory.INSTANCE);
        cmd.setCommandName(programName());
        cmd.setOut(out);
        cmd.setErr(err);
        // Getopt gives picocli the options only, each canonical, its value after '=': a value may be
        // anything, an option's name (-S -v) or "--" (-t --) too; no word ends the options there.
        cmd.setAllowOptionsAsOptionParameters(true);
        cmd.setEndOfOptionsDelimiter("\u0000\u0000"); // no word of argv holds a NUL; Getopt.DEFAULT_VALUE is one
        cmd.setOverwrittenOptionsAllowed(true);
        cmd.setParameterExceptionHandler(parameterErrors());
        cmd.setExecutionExceptionHandler(executionErrors());
        cmd.setExitCodeExceptionMapper(e -> 1);
        HelpLayout.install(cmd);
        ConfigDefaults defaults = new ConfigDefaults(cmd, config);
        cmd.setDefaultValueProvider(defaults);
        cmd.setExecutionStrategy(parseResult -> {
            defaults.parsed();
            if (parseResult.isVersionHelpRequested() && !parseResult.isUsageHelpRequested()) {
                return printVersion(cmd);
            }
            return new CommandLine.RunLast().execute(parseResult);
        });
        return cmd;
    }

    /**
     * {@code --version}: the provider's lines as they are. picocli would pass each through
     * {@code String.format} and its markup parser, whose first use compiles the formatter's regular
     * expression and asks for the console (~5 ms of a 90 ms command) for text that has neither.
     */
    private static int printVersion(CommandLine cmd) {
        return printVersion(cmd.getOut(), cmd.getCommandSpec().version());
    }

    /** The version's lines, as they are; exit status 0. */
    private static int printVersion(PrintWriter out, String[] lines) {
        for (String line : lines) {
            out.println(line);
        }
        out.flush();
        return 0;
    }

    /** Usage errors: GNU's two lines, the message and where to get help; exit status 1 as GNU cp. */
    private static IParameterExceptionHandler parameterErrors() {
        return (ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            if (ex instanceof ConfigDefaults.ConfigException) {
                err.println(programName() + ": " + ex.getMessage());
                return 1;
            }
            if (ex.getCommandLine().getCommandSpec().defaultValueProvider() instanceof ConfigDefaults config
                    && config.refusedKey(ex) != null) {
                String reason = ex instanceof ArgMatch.Invalid invalid ? invalid.oneLine() : gnuMessage(ex);
                err.println(programName() + ": " + config.refused(config.refusedKey(ex), reason).getMessage());
                return 1;
            }
            err.println(programName() + ": " + gnuMessage(ex));
            err.println("Try '" + programName() + " --help' for more information.");
            return 1;
        };
    }

    private static String gnuMessage(ParameterException ex) {
        String message = ex.getMessage();
        if (message.startsWith("Invalid value for option '")) {
            return message.replace("Invalid value for option", "invalid argument for option");
        }
        return message;
    }

    /** Whether a stack trace is asked for where no option was read: {@code CPX_DEBUG} set, or {@code --debug} having set cpx.debug. */
    static boolean debugRequested() {
        return System.getenv("CPX_DEBUG") != null || Boolean.getBoolean("cpx.debug");
    }

    /** What went wrong, in one line: the message of {@code e} or of the first cause that has one (an initializer's error has none of its own). */
    static String oneLine(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null && !message.isBlank()) {
                int end = message.indexOf('\n');
                return end < 0 ? message : message.substring(0, end);
            }
        }
        return e.toString();
    }

    /** A failure in one line: an Error as {@link #failure}, anything else as {@link #oneLine}. */
    static String describe(Throwable e) {
        return e instanceof Error error ? failure(error) : oneLine(e);
    }

    /**
     * An error of the JVM's in one line: a class that could not be loaded says which, and where
     * no descriptor is left (a low {@code ulimit -n}: the JVM opens its jars as it loads classes),
     * says so, which the error itself often does not.
     */
    static String failure(Error e) {
        String line = e instanceof NoClassDefFoundError ? "cannot load " + oneLine(e) : oneLine(e);
        if (!line.contains(TOO_MANY_OPEN_FILES) && outOfDescriptors()) {
            line = line + ": " + TOO_MANY_OPEN_FILES;
        }
        return line;
    }

    private static final String TOO_MANY_OPEN_FILES = "Too many open files";

    /** Whether the process has no descriptor left: opening /dev/null fails with {@code EMFILE}. */
    private static boolean outOfDescriptors() {
        try (FileOutputStream probe = new FileOutputStream("/dev/null")) {
            return false;
        } catch (Throwable t) {
            String message = t.getMessage();
            return message != null && message.contains(TOO_MANY_OPEN_FILES);
        }
    }

    /**
     * What a thread of the run that fails outside any task prints (the JDK's own too: under a low
     * descriptor limit its logging cleaner fails at exit): one line, the trace only where asked.
     * A class, not a lambda: the first lambda of a run costs milliseconds at start.
     */
    private static final class OneLine implements Thread.UncaughtExceptionHandler {
        static final OneLine INSTANCE = new OneLine();

        @Override
        public void uncaughtException(Thread t, Throwable e) {
            System.err.println(programName() + ": " + describe(e));
            if (debugRequested()) {
                e.printStackTrace();
            }
        }
    }

    /** Unexpected errors: one line, the stack trace only with --debug. */
    private static IExecutionExceptionHandler executionErrors() {
        return (ex, cmd, parseResult) -> {
            PrintWriter err = cmd.getErr();
            boolean debug = parseResult.hasMatchedOption("--debug") || debugRequested();
            err.println(programName() + ": " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
            if (debug) {
                ex.printStackTrace(err);
            }
            return 1;
        };
    }
}
