package dev.cpx.api;

import dev.cpx.spi.CopyEngine;
import dev.cpx.spi.PosixExtras;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.jar.JarFile;

/**
 * The engines found on the class path and in plugin directories. Discovery happens here and
 * nowhere else: an explicit choice wins, duplicate ids are rejected loudly (the first found
 * stays), a provider that fails to load is reported and skipped, and {@code auto} picks the
 * available engine of highest priority.
 */
public final class EngineRegistry {

    private final Map<String, CopyEngine> engines;
    /** Where the native support is looked for, on first use; null when it was given. */
    private final ClassLoader extrasLoader;
    private final List<String> discoveryProblems;
    private volatile Found found;

    /** The native support and every problem of the discovery, once the support has been looked for. */
    private record Found(PosixExtras extras, List<String> problems) {
    }

    /** The class path's native support, looked for in the background by {@link #prepareExtras()}. */
    private static volatile Preparation prepared;

    private EngineRegistry(Map<String, CopyEngine> engines, List<String> problems, ClassLoader extrasLoader) {
        this.engines = engines;
        this.discoveryProblems = List.copyOf(problems);
        this.extrasLoader = extrasLoader;
    }

    private EngineRegistry(Map<String, CopyEngine> engines, PosixExtras extras) {
        this(engines, List.of(), null);
        this.found = new Found(extras, List.of());
    }

    /**
     * A registry of exactly these engines, with optional native support ({@code extras} may be null):
     * for embedding with a chosen engine, and for tests.
     */
    public static EngineRegistry of(List<CopyEngine> engines, PosixExtras extras) {
        Map<String, CopyEngine> byId = new LinkedHashMap<>();
        for (CopyEngine engine : engines) {
            if (byId.putIfAbsent(engine.id(), engine) != null) {
                throw new IllegalArgumentException("duplicate engine id '" + engine.id() + "'");
            }
        }
        return new EngineRegistry(byId, extras);
    }

    /**
     * Starts looking for the native support of the class path on a background daemon thread, so
     * that loading its native library (JNA's class initialization: a third of the main thread's
     * work before a small copy starts) overlaps what the caller does meanwhile, such as parsing its
     * command line. A registry's first {@link #extras()} or {@link #problems()} waits for it and,
     * for the class path, takes its result: the support is never initialized on two threads at once.
     */
    public static void prepareExtras() {
        Preparation thread = new Preparation();
        prepared = thread;
        thread.start();
    }

    /**
     * The thread that looks for the native support. A thread of its own rather than a task and a
     * method reference: the first lambda of a run links the JVM's method handle machinery, and
     * FutureTask's class makes variable handles, each milliseconds that the main thread would spend
     * before picocli starts.
     */
    private static final class Preparation extends Thread {
        /** Set before the thread ends; {@link #join} makes it visible. Null when the search failed. */
        private Found found;

        Preparation() {
            super("cpx-prepare");
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                found = findOnClassPath();
            } catch (Throwable e) {
                // As a failed task's: nothing found early; the registry looks again where it is asked.
                found = null;
            }
        }

        Found await() throws InterruptedException {
            join();
            return found;
        }
    }

    private static Found findOnClassPath() {
        List<String> problems = new ArrayList<>();
        PosixExtras extras = loadExtras(EngineRegistry.class.getClassLoader(), problems);
        return new Found(extras, problems);
    }

    /** What {@link #prepareExtras()} found, once it has finished; null when it was not started. */
    private static Found awaitPrepared() {
        Preparation thread = prepared;
        if (thread == null) {
            return null;
        }
        try {
            return thread.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Native file system support found on the class path, if any is available (null otherwise). */
    public static PosixExtras discoverExtras() {
        return findOnClassPath().extras();
    }

    /** Engines on the class path only. */
    public static EngineRegistry discover() {
        return discover(List.of());
    }

    /**
     * Engines on the class path and in the jars of {@code pluginDirs} (directories that do not exist
     * are ignored; unreadable ones are reported).
     */
    public static EngineRegistry discover(List<Path> pluginDirs) {
        List<String> problems = new ArrayList<>();
        ClassLoader loader = pluginLoader(pluginDirs, problems);
        Map<String, CopyEngine> byId = new LinkedHashMap<>();
        Map<String, String> origins = new LinkedHashMap<>();
        var iterator = ServiceLoader.load(CopyEngine.class, loader).iterator();
        while (true) {
            CopyEngine engine;
            try {
                if (!iterator.hasNext()) {
                    break;
                }
                engine = iterator.next();
            } catch (ServiceConfigurationError | LinkageError e) {
                problems.add("cannot load engine provider: " + describe(e));
                continue;
            }
            String id;
            try {
                id = engine.id();
            } catch (RuntimeException | LinkageError e) {
                problems.add("cannot load engine provider " + engine.getClass().getName() + ": " + describe(e));
                continue;
            }
            String origin = origin(engine.getClass());
            if (byId.containsKey(id)) {
                problems.add("duplicate engine id '" + id + "' in " + origin + " (already provided by "
                        + origins.get(id) + "); ignored");
                continue;
            }
            if (id.equals(CopyOptions.AUTO_ENGINE)) {
                problems.add("engine in " + origin + " uses the reserved id 'auto'; ignored");
                continue;
            }
            byId.put(id, engine);
            origins.put(id, origin);
        }
        return new EngineRegistry(byId, problems, loader);
    }

    /**
     * The available provider of native support of highest priority ({@link PosixExtras#priority()}),
     * the first found among equals. Providers are asked for their availability in that order, and no
     * further once one is available: one passed over never loads its native library.
     */
    private static PosixExtras loadExtras(ClassLoader loader, List<String> problems) {
        List<PosixExtras> found = new ArrayList<>();
        var iterator = ServiceLoader.load(PosixExtras.class, loader).iterator();
        while (true) {
            try {
                if (!iterator.hasNext()) {
                    break;
                }
                PosixExtras extras = iterator.next();
                extras.priority();
                found.add(extras);
            } catch (ServiceConfigurationError | LinkageError | RuntimeException e) {
                problems.add("cannot load native support provider: " + describe(e));
            }
        }
        int[] priorities = new int[found.size()];
        for (int i = 0; i < priorities.length; i++) {
            priorities[i] = found.get(i).priority();
        }
        for (PosixExtras extras : highestFirst(found, priorities)) {
            try {
                if (extras.availability().available()) {
                    return extras;
                }
            } catch (LinkageError | RuntimeException e) {
                problems.add("cannot load native support provider: " + describe(e));
            }
        }
        return null;
    }

    /**
     * {@code items} by {@code priorities} (one each, in the same order), highest first, in the order
     * given among equals. Written out rather than a comparator: every run chooses its engine and
     * native support so, while nothing is compiled yet, and a comparator's first lambdas link the
     * method handle machinery (2-10 ms, on the thread the copy waits for).
     */
    static <T> List<T> highestFirst(List<T> items, int[] priorities) {
        List<T> sorted = new ArrayList<>(items.size());
        int[] kept = new int[priorities.length];
        for (int k = 0; k < priorities.length; k++) {
            int i = k;
            while (i > 0 && kept[i - 1] < priorities[k]) {
                kept[i] = kept[i - 1];
                i--;
            }
            kept[i] = priorities[k];
            sorted.add(i, items.get(k));
        }
        return sorted;
    }

    private static ClassLoader pluginLoader(List<Path> dirs, List<String> problems) {
        ClassLoader parent = EngineRegistry.class.getClassLoader();
        List<URL> jars = new ArrayList<>();
        for (Path dir : dirs) {
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "*.jar")) {
                List<Path> sorted = new ArrayList<>();
                stream.forEach(sorted::add);
                sorted.sort(Comparator.naturalOrder());
                for (Path jar : sorted) {
                    // A jar that is not one would be passed over by the class loader without a word.
                    try (JarFile checked = new JarFile(jar.toFile())) {
                        jars.add(jar.toUri().toURL());
                    } catch (IOException | RuntimeException e) {
                        problems.add("cannot load plugin " + ShellQuote.quote(jar) + ": " + describe(e));
                    }
                }
            } catch (NoSuchFileException e) {
                // A plugin directory that does not exist holds no plugins.
            } catch (IOException | RuntimeException e) {
                problems.add("cannot read plugin directory " + ShellQuote.quote(dir) + ": " + describe(e));
            }
        }
        return jars.isEmpty() ? parent : new URLClassLoader(jars.toArray(URL[]::new), parent);
    }

    private static String origin(Class<?> type) {
        try {
            CodeSource source = type.getProtectionDomain().getCodeSource();
            if (source != null && source.getLocation() != null) {
                return source.getLocation().getPath();
            }
        } catch (SecurityException e) {
            // fall through
        }
        return type.getName();
    }

    private static String describe(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        String message = cause.getMessage();
        String own = e.getMessage();
        if (cause == e) {
            return own == null ? e.getClass().getSimpleName() : own;
        }
        return (own == null ? e.getClass().getSimpleName() : own) + " (" + cause.getClass().getSimpleName()
                + (message == null ? "" : ": " + message) + ")";
    }

    /**
     * All engines found, available or not, by id. Sorted by a map rather than a stream and a
     * comparator: {@code --version} lists them once, while nothing is compiled yet, and a stream's
     * first lambdas link the method handle machinery (about a tenth of its main thread's work).
     */
    public List<CopyEngine> engines() {
        return new ArrayList<>(new TreeMap<>(engines).values());
    }

    /** Warnings from discovery: broken providers, duplicate ids, unreadable plugin directories. */
    public List<String> problems() {
        return found().problems();
    }

    /**
     * Native file system support, when a provider of it is available. It is looked for on the first
     * call (here or in {@link #problems()}), not by {@link #discover}: loading it loads a native
     * library, which listing the engines ({@code --version}) has no need of.
     */
    public Optional<PosixExtras> extras() {
        return Optional.ofNullable(found().extras());
    }

    private Found found() {
        Found f = found;
        if (f == null) {
            synchronized (this) {
                f = found;
                if (f == null) {
                    List<String> all = new ArrayList<>(discoveryProblems);
                    Found early = awaitPrepared();
                    PosixExtras extras;
                    if (early != null && extrasLoader == EngineRegistry.class.getClassLoader()) {
                        extras = early.extras();
                        all.addAll(early.problems());
                    } else {
                        extras = loadExtras(extrasLoader, all);
                    }
                    f = new Found(extras, List.copyOf(all));
                    found = f;
                }
            }
        }
        return f;
    }

    /** Ids of the engines that can run here, for messages. */
    public List<String> availableIds() {
        List<String> ids = new ArrayList<>();
        for (CopyEngine e : engines()) {
            if (safeAvailable(e)) {
                ids.add(e.id());
            }
        }
        return ids;
    }

    /**
     * The engine for {@code id}: {@code auto} means the available engine with the highest priority.
     *
     * @throws UnknownEngineException when no such engine exists or it cannot run here
     */
    public CopyEngine select(String id) throws UnknownEngineException {
        if (id == null || id.equals(CopyOptions.AUTO_ENGINE)) {
            // Highest priority first, the first found among equals; asked no further than the first
            // available, so an engine passed over never loads its native library.
            List<CopyEngine> all = new ArrayList<>(engines.values());
            int[] priorities = new int[all.size()];
            for (int i = 0; i < priorities.length; i++) {
                priorities[i] = all.get(i).priority();
            }
            for (CopyEngine engine : highestFirst(all, priorities)) {
                if (safeAvailable(engine)) {
                    return engine;
                }
            }
            throw new UnknownEngineException("no copy engine is available"
                    + (engines.isEmpty() ? "" : " (found: " + String.join(", ", engines.keySet()) + ")"));
        }
        CopyEngine engine = engines.get(id);
        if (engine == null) {
            throw new UnknownEngineException("unknown engine '" + id + "'; available engines: "
                    + String.join(", ", availableIds()));
        }
        var availability = engine.availability();
        if (!availability.available()) {
            throw new UnknownEngineException("engine '" + id + "' is not available here: " + availability.reason());
        }
        return engine;
    }

    private static boolean safeAvailable(CopyEngine engine) {
        try {
            return engine.availability().available();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** No engine answers to the requested id, or it cannot run here. */
    public static final class UnknownEngineException extends Exception {
        public UnknownEngineException(String message) {
            super(message);
        }
    }
}
