package dev.cpx.cli;

import dev.cpx.api.CopyOptions;
import dev.cpx.api.EngineRegistry;
import dev.cpx.spi.support.PathBytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/** The options that choose and tune the copy engine: {@code --engine}, {@code --list-engines}, {@code --plugin-path}, {@code -j}. */
public final class EngineOptions implements Specs.Target {

    /** Environment variable with extra plugin directories, colon-separated. */
    static final String PLUGIN_PATH_ENV = "CPX_PLUGIN_PATH";

    /** The command these options belong to (for usage errors); set by {@link CpxCommand}. */
    CommandSpec spec;

    String engine = CopyOptions.AUTO_ENGINE;
    boolean listEngines;
    String pluginPath;
    private int jobs = CopyOptions.defaultJobs();

    /** Adds these options to the command's model {@code s}, in code (see {@link Specs}). */
    void addTo(CommandSpec s) {
        Specs.Binding engineBinding = new Specs.Binding(this, "--engine");
        s.addOption(OptionSpec.builder("--engine").paramLabel("ID").type(String.class).arity("1")
                .description("Copy engine: auto (default: the fastest available), ffm (JDK 22+), native, nio, or a plugin's id.")
                .completionCandidates(new EngineIds()).setter(engineBinding).getter(engineBinding)
                .hasInitialValue(false).build());
        s.addOption(Specs.flag(this, "List the engines found, whether they work here, and exit.", "--list-engines"));
        s.addOption(Specs.value(this, "DIRS", "Also load engine plugins from these directories (colon-separated); "
                + "see also CPX_PLUGIN_PATH.", "--plugin-path"));
        s.addOption(Specs.integer(this, "N", "Copy with exactly N worker threads (default: twice the number of CPUs, at least 4, "
                + "and more, up to max(16, 4 x CPUs), while they wait on the disk; one per CPU from tmpfs to tmpfs).",
                "-j", "--jobs"));
    }

    @Override
    public void set(String key, Object value) {
        switch (key) {
            case "--engine" -> engine = (String) value;
            case "--list-engines" -> listEngines = true;
            case "--plugin-path" -> pluginPath = (String) value;
            case "--jobs" -> setJobs((Integer) value);
            default -> throw new IllegalStateException("no such option: " + key);
        }
    }

    private void setJobs(int n) {
        if (n < 1 || n > 1024) {
            throw new ParameterException(spec.commandLine(),
                    "invalid number of jobs: '" + n + "' (expected 1 to 1024)");
        }
        jobs = n;
    }

    int jobs() {
        return jobs;
    }

    /** Plugin directories: the distribution's plugins/ folder, then CPX_PLUGIN_PATH, then --plugin-path. */
    List<Path> pluginDirectories() {
        List<Path> dirs = new ArrayList<>();
        String home = System.getProperty("cpx.home");
        if (home != null && !home.isEmpty()) {
            dirs.add(PathBytes.path(home).resolve("plugins"));
        }
        addAll(dirs, System.getenv(PLUGIN_PATH_ENV));
        addAll(dirs, pluginPath);
        return dirs;
    }

    private static void addAll(List<Path> dirs, String colonSeparated) {
        if (colonSeparated == null) {
            return;
        }
        for (String d : colonSeparated.split(":")) {
            if (!d.isEmpty()) {
                dirs.add(PathBytes.path(d));
            }
        }
    }

    EngineRegistry discover() {
        return EngineRegistry.discover(pluginDirectories());
    }

    /**
     * Values of {@code --engine} for shell completion: {@code auto} and the engines on the class path.
     * Read when the completion script is generated at build time, never while copying.
     */
    static final class EngineIds implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            List<String> ids = new ArrayList<>();
            ids.add(CopyOptions.AUTO_ENGINE);
            EngineRegistry.discover().engines().forEach(e -> ids.add(e.id()));
            return ids.iterator();
        }
    }
}
