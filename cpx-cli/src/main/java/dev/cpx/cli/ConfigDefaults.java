package dev.cpx.cli;

import dev.cpx.api.CopyOptions;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.ShellQuote;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * The user's defaults, from {@code $XDG_CONFIG_HOME/cpx/cpx.properties} (by default
 * {@code ~/.config/cpx/cpx.properties}), as picocli's default-value provider: each {@code key=value}
 * line sets the default of the option {@code --key}, and the command line overrides it. Only cpx's
 * own options can be set ({@link #KEYS}): GNU cp's options keep GNU's defaults, so scripts written
 * for cp behave the same under cpx. The file is read strictly: an unknown key, a repeated key, a
 * line that is not {@code key=value} or a value the option refuses is an error naming the file and
 * line, never skipped. {@code --no-config} ignores the file.
 */
final class ConfigDefaults implements IDefaultValueProvider {

    /** The keys a defaults file may set: long option names without the dashes. */
    static final List<String> KEYS = List.of("jobs", "engine", "plugin-path", "progress", "summary");

    /** A defaults file that cannot be used: one line naming the file (and line). */
    static final class ConfigException extends ParameterException {
        private static final long serialVersionUID = 1L;

        ConfigException(CommandLine cmd, String message) {
            super(cmd, message);
        }
    }

    private record Entry(String value, int line) {
    }

    private final CommandLine cmd;
    private final Path file;
    private Optional<OptionSpec> noConfig;
    private Map<String, Entry> entries;
    /** The key whose value picocli applied last: an error while applying defaults is that key's. */
    private volatile String lastApplied;
    private volatile boolean parsed;

    ConfigDefaults(CommandLine cmd, Path file) {
        this.cmd = cmd;
        this.file = file;
    }

    /** {@code $XDG_CONFIG_HOME/cpx/cpx.properties} if that is set (and absolute), else {@code $HOME/.config/cpx/cpx.properties}. */
    static Path location(Map<String, String> env) {
        String xdg = env.get("XDG_CONFIG_HOME");
        if (xdg != null && xdg.startsWith("/")) {
            return PathBytes.path(xdg).resolve("cpx/cpx.properties");
        }
        String home = env.get("HOME");
        if (home == null || home.isEmpty()) {
            home = System.getProperty("user.home");
        }
        return PathBytes.path(home).resolve(".config/cpx/cpx.properties");
    }

    Path file() {
        return file;
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        // Only the value just handed out can be the one an error is about: picocli applies each default
        // right after asking for it, the positional parameters last, then reads the command line.
        lastApplied = null;
        if (!(arg instanceof OptionSpec option) || !option.longestName().startsWith("--")) {
            return null;
        }
        String key = option.longestName().substring(2);
        if (!KEYS.contains(key)) {
            return null;
        }
        Entry e = ignored() ? null : load().get(key);
        if (e == null) {
            // -j is set through a method, whose initial value picocli cannot see: --help shows this one.
            return key.equals("jobs") ? Integer.toString(CopyOptions.defaultJobs()) : null;
        }
        lastApplied = key;
        return e.value();
    }

    /** Whether the file set {@code key} (and the command line may not have overridden it). */
    boolean sets(String key) {
        return !ignored() && load().containsKey(key);
    }

    /**
     * The key whose value an option refused, when {@code e} came from applying this file's defaults
     * (picocli applies them after the command line, so an error then is the file's); else null.
     */
    String refusedKey(ParameterException e) {
        return parsed || e instanceof ConfigException ? null : lastApplied;
    }

    /** Parsing is over: errors from now on are not the file's. */
    void parsed() {
        parsed = true;
    }

    /** The error for the value of {@code key}, with the option's reason. */
    ConfigException refused(String key, String reason) {
        Entry entry = load().get(key);
        return error(entry.line(), "bad value for '" + key + "': " + reason);
    }

    private boolean ignored() {
        if (noConfig == null) {
            // Looked up once: findOption compares every name of every option.
            noConfig = Optional.ofNullable(cmd.getCommandSpec().findOption("--no-config"));
        }
        return noConfig.isPresent() && Boolean.TRUE.equals(noConfig.get().getValue());
    }

    private Map<String, Entry> load() {
        if (entries != null) {
            return entries;
        }
        List<String> lines;
        try {
            lines = PathBytes.decode(Files.readAllBytes(file)).lines().toList();
        } catch (NoSuchFileException e) {
            entries = Map.of();
            return entries;
        } catch (java.nio.file.AccessDeniedException e) {
            if (!Files.isRegularFile(file)) {
                // A home directory this user cannot look into (sudo, setpriv) holds no file for them.
                entries = Map.of();
                return entries;
            }
            throw new ConfigException(cmd, "cannot read defaults file " + ShellQuote.quote(file) + ": " + Diagnostic.reasonOf(e));
        } catch (IOException e) {
            throw new ConfigException(cmd, "cannot read defaults file " + ShellQuote.quote(file) + ": " + Diagnostic.reasonOf(e));
        }
        Map<String, Entry> map = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            int number = i + 1;
            if (line.isEmpty() || line.startsWith("#") || line.startsWith("!")) {
                continue;
            }
            int eq = separator(line);
            if (eq <= 0) {
                throw error(number, "expected KEY=VALUE, found " + ShellQuote.quote(line));
            }
            String key = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            if (!KEYS.contains(key)) {
                throw error(number, "unknown key " + ShellQuote.quote(key) + "; known keys: " + String.join(", ", KEYS));
            }
            if (map.containsKey(key)) {
                throw error(number, "'" + key + "' is set twice (also on line " + map.get(key).line() + ")");
            }
            if (value.isEmpty()) {
                throw error(number, "no value for '" + key + "'");
            }
            map.put(key, new Entry(value, number));
        }
        entries = map;
        return entries;
    }

    private static int separator(String line) {
        int eq = line.indexOf('=');
        int colon = line.indexOf(':');
        if (eq < 0) {
            return colon;
        }
        return colon < 0 ? eq : Math.min(eq, colon);
    }

    private ConfigException error(int line, String message) {
        return new ConfigException(cmd, "defaults file " + ShellQuote.quote(file) + ", line " + line + ": " + message);
    }
}
