package dev.cpx.jmh;

import dev.cpx.api.EngineRegistry;
import dev.cpx.spi.CopyEngine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * {@code java -jar benchmarks.jar [JMH options]}: JMH's own command line, with the {@code engine}
 * parameter set to every available engine ServiceLoader finds unless {@code -p engine=...} is given,
 * and the JVM flags the engines need added to every forked JVM. This JVM decides which engines are
 * available, so it needs those flags too: {@code java -jar} takes them from the manifest; with
 * {@code java -cp} (to add a plugin jar) give them on the command line, as {@code benchmarks/jmh.sh} does.
 */
public final class BenchmarkMain {

    /**
     * What the scheduler and the native engine need: the parent pom's {@code cpx.jvm.opens}, the list
     * the launchers' {@code cpx.jvm-args} starts with, written into this jar at build time.
     */
    static final List<String> ENGINE_JVM_FLAGS = engineJvmFlags();

    private static List<String> engineJvmFlags() {
        try (var in = BenchmarkMain.class.getResourceAsStream("engine.jvm-args")) {
            if (in == null) {
                throw new IllegalStateException("engine.jvm-args missing from the jar: build cpx-jmh with Maven");
            }
            List<String> flags = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    flags.addAll(Arrays.asList(line.trim().split("\\s+")));
                }
            }
            return List.copyOf(flags);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws Exception {
        CommandLineOptions cli = new CommandLineOptions(args);
        if (cli.shouldHelp()) {
            cli.showHelp();
            return;
        }
        if (cli.shouldList() || cli.shouldListWithParams()) {
            new Runner(cli).list();
            return;
        }
        ChainedOptionsBuilder options = new OptionsBuilder().parent(cli);
        if (!cli.getParameter("engine").hasValue()) {
            EngineRegistry registry = EngineRegistry.discover();
            String[] engines = registry.availableIds().toArray(String[]::new);
            System.out.println("# engines found: " + Arrays.toString(engines));
            for (CopyEngine e : registry.engines()) {
                if (!e.availability().available()) {
                    // Availability is decided in this JVM: it needs the same flags as the forks (see ENGINE_JVM_FLAGS).
                    System.out.println("# engine " + e.id() + " not benchmarked, unavailable here: " + e.availability().reason());
                }
            }
            options.param("engine", engines);
        }
        List<String> append = new ArrayList<>(ENGINE_JVM_FLAGS);
        if (cli.getJvmArgsAppend().hasValue()) {
            append.addAll(cli.getJvmArgsAppend().get());
        }
        options.jvmArgsAppend(append.toArray(String[]::new));
        new Runner(options.build()).run();
    }
}
