package dev.cpx.cli;

import dev.cpx.api.EngineRegistry;
import dev.cpx.spi.CopyEngine;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code --version}: cpx's version from its jar manifest, the engines and their versions, the JDK and
 * the OS. Whether each engine works here is {@code --list-engines}'s question: asking it would load
 * JNA and the C library, which {@code --version} has no need of (a third of its time).
 */
public final class VersionProvider implements IVersionProvider {

    @Override
    public String[] getVersion() {
        List<String> lines = new ArrayList<>();
        lines.add("cpx " + cpxVersion());
        EngineRegistry registry = EngineRegistry.discover(new EngineOptions().pluginDirectories());
        for (CopyEngine e : registry.engines()) {
            lines.add("engine " + e.id() + " " + e.version());
        }
        lines.add("java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.vm.version") + ", " + System.getProperty("java.vendor") + ")");
        lines.add("os " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        return lines.toArray(new String[0]); // not String[]::new: a method reference links at its first use
    }

    static String cpxVersion() {
        String v = VersionProvider.class.getPackage().getImplementationVersion();
        return v == null ? "(development build)" : v;
    }
}
