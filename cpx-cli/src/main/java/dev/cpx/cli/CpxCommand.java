package dev.cpx.cli;

import dev.cpx.api.CopyOptions;
import dev.cpx.api.Cpx;
import dev.cpx.api.EngineRegistry;
import dev.cpx.api.ShellQuote;
import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.PosixExtras;
import dev.cpx.spi.support.PathBytes;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.IntPredicate;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code cpx [OPTION]... SOURCE... DEST}: copy like GNU cp, in parallel, with a chosen engine. Its
 * picocli model is built in code by {@link #spec()} (no annotations: see {@link Specs}), from the
 * option groups {@link CpOptions} (GNU cp's), {@link EngineOptions}, {@link CopyControlOptions},
 * {@link OutputOptions} and {@link ClusterOptions} (cpx's own). Each group adds its options to this
 * one model rather than being a picocli mixin: a mixin is a {@code CommandSpec} of its own, and each
 * compiles picocli's four negatable-option patterns as it is made (five mixins: 5-14 ms of CPU at
 * every start, docs/performance.md).
 */
public final class CpxCommand implements Callable<Integer>, Specs.Target {

    CommandSpec spec;
    final CpOptions cp = new CpOptions();
    final EngineOptions engines = new EngineOptions();
    final CopyControlOptions control = new CopyControlOptions();
    final OutputOptions display = new OutputOptions();
    final ClusterOptions cluster = new ClusterOptions();
    boolean debug;
    List<String> operands = new ArrayList<>();

    /** This command's model: name, usage text, the groups' options, its own options and the operands. */
    public CommandSpec spec() {
        CommandSpec s = CommandSpec.wrapWithoutInspection(this, LazyFactory.INSTANCE);
        s.name("cpx");
        s.versionProvider(new VersionProvider());
        s.usageMessage()
                .sortOptions(false)
                .autoWidth(true)
                .customSynopsis(
                        "Usage: cpx [OPTION]... [-T] SOURCE DEST",
                        "  or:  cpx [OPTION]... SOURCE... DIRECTORY",
                        "  or:  cpx [OPTION]... -t DIRECTORY SOURCE...")
                .description("Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY, with parallel workers.",
                        "", "Mandatory arguments to long options are mandatory for short options too.")
                .footer("%nExit status: 0 if everything was copied, 1 if anything failed or the command line is wrong, "
                        + "129/130/143 when interrupted by SIGHUP/SIGINT/SIGTERM.");
        cp.addTo(s);
        engines.addTo(s);
        control.addTo(s);
        display.addTo(s);
        cluster.addTo(s);
        s.addOption(Specs.flag(this, "Print stack traces of internal errors.", "--debug"));
        s.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Display this help and exit.")
                .type(boolean.class).arity("0").build());
        s.addOption(OptionSpec.builder("-V", "--version").versionHelp(true).description("Output version information and exit.")
                .type(boolean.class).arity("0").build());
        s.addPositional(Specs.operands(this, "SOURCE", "SOURCE", "Files and directories to copy, then DEST."));
        spec = s;
        cp.spec = s;
        engines.spec = s;
        control.spec = s;
        display.spec = s;
        return s;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void set(String key, Object value) {
        switch (key) {
            case "--debug" -> debug = true;
            case "SOURCE" -> operands = (List<String>) value;
            default -> throw new IllegalStateException("no such option: " + key);
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (debug || System.getenv("CPX_DEBUG") != null) {
            System.setProperty("cpx.debug", "true");
        }
        Output output = new Output(out, err, OutputOptions.stdoutIsTerminal());
        Reporter reporter = new Reporter(Main.programName(), output, cp.verbose, display.json, control.dryRun,
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
        EngineRegistry registry = engines.discover();
        registry.problems().forEach(p -> reporter.error("warning: " + p));
        if (engines.listEngines) {
            listEngines(registry, out);
            return 0;
        }
        // The native support's two settings for the whole process (no method references: each links a
        // lambda at every start).
        PosixExtras extras = registry.extras().orElse(null);
        if (extras != null) {
            if (!Main.debugRequested()) {
                // Ctrl-\ ends the copy (a cluster node's work too) as it ends GNU cp, where the JVM would
                // print its threads and go on.
                extras.quitByDefault();
            }
            // Names in messages with the characters the C library prints, as GNU cp's.
            Optional<IntPredicate> printable = extras.printable();
            if (printable.isPresent()) {
                ShellQuote.printableBy(printable.get());
            }
        }
        if (cluster.requested() && cluster.plan == null) {
            return new ClusterSession(this, cluster, output).run(Cpx.create(registry), null, List.of(), null);
        }
        cp.validate();
        Operands ops = operands(reporter);
        if (ops == null) {
            return 1;
        }
        if (!contextSupported(reporter)) {
            return 1;
        }
        CopyOptions.Builder builder = control.applyTo(cp.toBuilder()).engine(engines.engine);
        int jobs = jobsGiven();
        if (jobs > 0) {
            builder.jobs(jobs); // exactly; by default, more while workers wait on the disk
        }
        CopyOptions options = builder.build();
        CopyEngine engine;
        try {
            engine = registry.select(options.engine());
        } catch (EngineRegistry.UnknownEngineException e) {
            if (spec.defaultValueProvider() instanceof ConfigDefaults config && config.sets("engine")
                    && !spec.commandLine().getParseResult().hasMatchedOption("--engine")) {
                throw config.refused("engine", e.getMessage());
            }
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (cluster.requested()) {
            return new ClusterSession(this, cluster, output).run(Cpx.create(registry), options, ops.sources, ops.destination);
        }
        return new CopySession(Main.programName(), display, output, reporter).run(() -> {
            try {
                return Cpx.create(registry).start(ops.sources, ops.destination, options, reporter);
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
        }, engine.id(), options.jobs(), options.dryRun());
    }

    private record Operands(List<Path> sources, Path destination) {
    }

    /**
     * SELinux contexts ({@code -Z}, {@code --context}, {@code --preserve=context}): reported as GNU
     * cp reports them on a kernel without SELinux; where SELinux is on, cpx cannot set contexts and
     * says so. Returns false when the copy must not start.
     */
    private boolean contextSupported(Reporter reporter) {
        boolean selinux = java.nio.file.Files.exists(java.nio.file.Path.of("/sys/fs/selinux/enforce"));
        if (cp.contextRequested && cp.preserve.contains(dev.cpx.api.Attribute.CONTEXT)) {
            reporter.error(selinux ? "cannot preserve security context: SELinux contexts are not supported by cpx"
                    : "cannot preserve security context without an SELinux-enabled kernel");
            return false;
        }
        if (cp.contextValue) {
            reporter.error(selinux ? "warning: ignoring --context; SELinux contexts are not supported by cpx"
                    : "warning: ignoring --context; it requires an SELinux-enabled kernel");
        } else if (cp.defaultContext && selinux) {
            reporter.error("warning: ignoring -Z; SELinux contexts are not supported by cpx");
        }
        return true;
    }

    /**
     * GNU's operand rules: at least one source; a destination unless -t; exactly two with -T. Null
     * after a fatal error reported in one line (GNU's {@code die}, no usage line).
     */
    private Operands operands(Reporter reporter) {
        List<String> args = operands;
        String dest;
        List<String> sources;
        if (cp.targetDirectory != null) {
            if (cp.noTargetDirectory) {
                reporter.error("cannot combine --target-directory (-t) and --no-target-directory (-T)");
                return null;
            }
            if (args.isEmpty()) {
                throw usage("missing file operand");
            }
            dest = cp.targetDirectory;
            sources = args;
        } else {
            if (args.isEmpty()) {
                throw usage("missing file operand");
            }
            if (args.size() == 1) {
                throw usage("missing destination file operand after " + ShellQuote.quote(args.get(0)));
            }
            if (cp.noTargetDirectory && args.size() > 2) {
                throw usage("extra operand " + ShellQuote.quote(args.get(2)));
            }
            dest = args.get(args.size() - 1);
            sources = args.subList(0, args.size() - 1);
        }
        // As GNU cp: only where one file is copied to another (-T, or one source and a destination that
        // is not a directory); a -t directory or the last of several operands that is not one is
        // reported as a target ("target 'x': Not a directory"), without the usage line.
        if (cp.parents && cp.targetDirectory == null
                && (cp.noTargetDirectory || (sources.size() == 1 && !isDirectory(dest)))) {
            throw usage("with --parents, the destination must be a directory");
        }
        // Operands stay as given, trailing slashes included (a link written "link/" is followed); with
        // --strip-trailing-slashes GNU cp 9.1 takes them off the sources copied into a directory only.
        boolean strip = cp.stripTrailingSlashes && (cp.targetDirectory != null
                || (!cp.noTargetDirectory && (sources.size() > 1 || isDirectory(dest))));
        List<Path> list = new ArrayList<>();
        for (String s : sources) {
            Path source = PathBytes.path(s);
            list.add(strip ? PathBytes.withoutTrailingSlashes(source) : source);
        }
        return new Operands(list, PathBytes.path(dest));
    }

    /** Whether the operand names a directory; the empty operand names nothing (not the working directory, as for Java). */
    private static boolean isDirectory(String operand) {
        return !operand.isEmpty() && java.nio.file.Files.isDirectory(PathBytes.path(operand));
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    private static void listEngines(EngineRegistry registry, PrintWriter out) {
        String format = "%-10s %-9s %-10s %s%n";
        out.printf(format, "ID", "AVAILABLE", "VERSION", "DESCRIPTION");
        String best;
        try {
            best = registry.select(CopyOptions.AUTO_ENGINE).id();
        } catch (EngineRegistry.UnknownEngineException e) {
            best = "";
        }
        for (CopyEngine e : registry.engines()) {
            var availability = e.availability();
            String description = e.description() + (e.id().equals(best) ? " [default]" : "")
                    + (availability.available() ? "" : " (" + availability.reason() + ")");
            out.printf(format, e.id(), availability.available() ? "yes" : "no", e.version(), description);
        }
    }

    /** {@code -j}'s value where the command line or the configuration gives it; 0 for the default. */
    int jobsGiven() {
        boolean given = spec.commandLine().getParseResult().hasMatchedOption("--jobs")
                || spec.defaultValueProvider() instanceof ConfigDefaults config && config.sets("jobs");
        return given ? engines.jobs() : 0;
    }
}
