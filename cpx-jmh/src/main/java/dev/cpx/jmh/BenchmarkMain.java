package dev.cpx.jmh;

import dev.cpx.api.EngineRegistry;
import dev.cpx.spi.CopyEngine;
import java.util.Arrays;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * {@code java -jar benchmarks.jar [JMH options]}: JMH's own command line, with the {@code engine}
 * parameter set to every available engine ServiceLoader finds unless {@code -p engine=...} is given.
 */
public final class BenchmarkMain {

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws Exception {
        CommandLineOptions cli = new CommandLineOptions(args);
        ChainedOptionsBuilder options = new OptionsBuilder().parent(cli);
        if (!cli.getParameter("engine").hasValue()) {
            String[] engines = EngineRegistry.discover().engines().stream()
                    .filter(e -> e.availability().available())
                    .map(CopyEngine::id)
                    .toArray(String[]::new);
            System.out.println("# engines found: " + Arrays.toString(engines));
            options.param("engine", engines);
        }
        new Runner(options.build()).run();
    }
}
