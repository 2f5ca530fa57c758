package dev.cpx.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import picocli.CommandLine;

/**
 * picocli's default factory, reached only when picocli needs an instance: its class initializer
 * looks for Groovy's {@code Closure} class, a failing search of every jar that every start paid
 * for although cpx's model, built in code, asks the factory for nothing.
 */
final class LazyFactory implements CommandLine.IFactory {

    static final LazyFactory INSTANCE = new LazyFactory();

    private LazyFactory() {
    }

    @Override
    public <K> K create(Class<K> cls) throws Exception {
        // The collections that options with several values fill, as the default factory makes them.
        if (cls.isAssignableFrom(ArrayList.class)) {
            return cls.cast(new ArrayList<>());
        }
        if (cls.isAssignableFrom(LinkedHashSet.class)) {
            return cls.cast(new LinkedHashSet<>());
        }
        if (cls.isAssignableFrom(LinkedHashMap.class)) {
            return cls.cast(new LinkedHashMap<>());
        }
        return CommandLine.defaultFactory().create(cls);
    }
}
