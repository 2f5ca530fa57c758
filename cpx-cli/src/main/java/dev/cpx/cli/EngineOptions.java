package dev.cpx.cli;

import dev.cpx.api.CopyOptions;
import dev.cpx.api.EngineRegistry;
import dev.cpx.spi.support.PathBytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The options that choose and tune the copy engine: {@code --engine}, {@code --list-engines}, {@code --plugin-path}, {@code -j}. */
public final class EngineOptions {

    /** Environment variable with extra plugin directories, colon-separated. */
    static final String PLUGIN_PATH_ENV = "CPX_PLUGIN_PATH";

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--engine", paramLabel = "ID", completionCandidates = EngineIds.class,
            description = "Copy engine: auto (default: the fastest available), native, nio, or a plugin's id.")
    String engine = CopyOptions.AUTO_ENGINE;

    @Option(names = "--list-engines", description = "List the engines found, whether they work here, and exit.")
    boolean listEngines;

    @Option(names = "--plugin-path", paramLabel = "DIRS",
            description = "Also load engine plugins from these directories (colon-separated); see also CPX_PLUGIN_PATH.")
    String pluginPath;

    private int jobs = CopyOptions.defaultJobs();

    @Option(names = {"-j", "--jobs"}, paramLabel = "N",
            description = "Copy with N worker threads (default: twice the number of CPUs, at least 4; see README for why).")
    void setJobs(int n) {
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
