package dev.cpx.cli;

import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * picocli's model, built in code: {@link OptionSpec#builder} instead of annotations, so picocli
 * reads no annotation, makes no proxy and uses no reflection at start (the reflective model cost
 * more than half of {@code cpx --version}). Each option calls {@link Target#set} of the object that
 * owns it with its key (its longest name) and its typed value, in command-line order, so the GNU
 * rules that depend on order (the last of {@code -P/-L/-H} wins and the like) stay in plain Java.
 */
final class Specs {

    private Specs() {
    }

    /** An object that takes option values by key. */
    interface Target {
        /** Called once per occurrence of the option, in command-line order; {@code value} is typed (Boolean, Integer, String). */
        void set(String key, Object value);
    }

    /** Forwards values to a {@link Target} and remembers the last one (for {@code getValue()}). */
    static final class Binding implements ISetter, IGetter {
        private final Target target;
        private final String key;
        private Object value;

        Binding(Target target, String key) {
            this.target = target;
            this.key = key;
        }

        /** Whether {@code other} sets the same thing: the same option under another name (GNU's {@code --path}). */
        boolean sameAs(Binding other) {
            return target == other.target && key.equals(other.key);
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T set(T newValue) {
            Object old = value;
            value = newValue;
            target.set(key, newValue);
            return (T) old;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T get() {
            return (T) value;
        }
    }

    private static OptionSpec.Builder option(Target target, String[] names, String description) {
        Binding binding = new Binding(target, names[names.length - 1]);
        return OptionSpec.builder(names).description(description).setter(binding).getter(binding).hasInitialValue(false);
    }

    /** An option without a value ({@code -r}); {@code names} end with the key. */
    static OptionSpec flag(Target target, String description, String... names) {
        return option(target, names, description).type(boolean.class).arity("0").build();
    }

    /** Another name for the option {@code key} of {@code target}, left out of the help (GNU's undocumented ones). */
    static OptionSpec alias(Target target, String key, String name) {
        Binding binding = new Binding(target, key);
        return OptionSpec.builder(name).setter(binding).getter(binding).hasInitialValue(false).hidden(true)
                .type(boolean.class).arity("0").build();
    }

    /** An option with a mandatory value ({@code -t DIR}, {@code --sparse=WHEN}). */
    static OptionSpec value(Target target, String label, String description, String... names) {
        return option(target, names, description).type(String.class).arity("1").paramLabel(label).build();
    }

    /** An option whose value is optional and given only after {@code =} (see {@link Getopt}). */
    static OptionSpec optional(Target target, String label, String description, String... names) {
        return option(target, names, description).type(String.class).arity("0..1").paramLabel(label).build();
    }

    /** An option with an integer value. */
    static OptionSpec integer(Target target, String label, String description, String... names) {
        return option(target, names, description).type(int.class).arity("1").paramLabel(label).build();
    }

    /** The positional parameters, as a list of strings. */
    static PositionalParamSpec operands(Target target, String key, String label, String description) {
        Binding binding = new Binding(target, key);
        return PositionalParamSpec.builder().paramLabel(label).arity("0..*").type(java.util.List.class)
                .auxiliaryTypes(String.class).description(description).setter(binding).getter(binding)
                .hasInitialValue(false).build();
    }
}
