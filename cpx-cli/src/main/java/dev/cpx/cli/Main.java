package dev.cpx.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/** Entry point of the {@code cpx} command. */
public final class Main {

    private static final String PICOCLI_CONVERTER_EXCLUDES = "picocli.converters.excludes";

    private Main() {
    }

    public static void main(String[] args) {
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

    /** Runs the command and returns the exit status. */
    static int run(String[] args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8));
        PrintWriter err = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.err), StandardCharsets.UTF_8), true);
        try {
            CommandLine cmd = commandLine(out, err);
            String[] normalized;
            try {
                normalized = ArgNormalizer.normalize(cmd.getCommandSpec(), args);
            } catch (ParameterException e) {
                return cmd.getParameterExceptionHandler().handleParseException(e, args);
            }
            return cmd.execute(normalized);
        } catch (Exception e) {
            err.println(programName() + ": " + e.getMessage());
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
        cmd.setPosixClusteredShortOptionsAllowed(true);
        cmd.setUnmatchedOptionsArePositionalParams(false);
        cmd.setOverwrittenOptionsAllowed(true);
        cmd.setParameterExceptionHandler(parameterErrors());
        cmd.setExecutionExceptionHandler(executionErrors());
        cmd.setExitCodeExceptionMapper(e -> 1);
        HelpLayout.install(cmd);
        ConfigDefaults defaults = new ConfigDefaults(cmd, config);
        cmd.setDefaultValueProvider(defaults);
        cmd.setExecutionStrategy(parseResult -> {
            defaults.parsed();
            return new CommandLine.RunLast().execute(parseResult);
        });
        return cmd;
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
        if (ex instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String arg = u.getUnmatched().get(0);
            if (arg.startsWith("--")) {
                return "unrecognized option '" + arg + "'";
            }
            if (arg.startsWith("-") && arg.length() > 1) {
                return "invalid option -- '" + arg.charAt(1) + "'";
            }
        }
        String message = ex.getMessage();
        if (message.startsWith("Missing required parameter for option '")) {
            // GNU words it after the form used: the short one ends the command line as "-t".
            String name = message.substring("Missing required parameter for option '".length(), message.indexOf('\'', 40));
            java.util.List<String> given = ex.getCommandLine().getParseResult() == null ? java.util.List.of()
                    : ex.getCommandLine().getParseResult().originalArgs();
            String last = given.isEmpty() ? name : given.get(given.size() - 1);
            if (last.startsWith("--")) {
                return "option '" + last + "' requires an argument";
            }
            return "option requires an argument -- '" + (last.startsWith("-") ? last.substring(last.length() - 1) : name) + "'";
        }
        java.util.regex.Matcher flag = java.util.regex.Pattern.compile("option '(--[^']+)' should be specified without '.*' parameter")
                .matcher(message);
        if (flag.matches()) {
            // getopt_long's words for --verbose=yes.
            return "option '" + flag.group(1) + "' doesn't allow an argument";
        }
        if (message.startsWith("Invalid value for option '")) {
            return message.replace("Invalid value for option", "invalid argument for option");
        }
        return message;
    }

    /** Unexpected errors: one line, the stack trace only with --debug. */
    private static IExecutionExceptionHandler executionErrors() {
        return (ex, cmd, parseResult) -> {
            PrintWriter err = cmd.getErr();
            boolean debug = parseResult.hasMatchedOption("--debug") || System.getenv("CPX_DEBUG") != null;
            err.println(programName() + ": " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
            if (debug) {
                ex.printStackTrace(err);
            }
            return 1;
        };
    }
}
