package dev.cpx.core.plan;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyOptions;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * {@link CopyOptions} written into a plan and read back, so every worker runs with the planner's
 * options. Every component of the record is written under {@code option.NAME}: a component added to
 * {@code CopyOptions} later travels without a change here, and a plan missing one is refused.
 */
final class OptionsCodec {

    private static final String PREFIX = "option.";

    private OptionsCodec() {
    }

    static void write(CopyOptions options, Properties into) {
        for (RecordComponent c : CopyOptions.class.getRecordComponents()) {
            Object v;
            try {
                v = c.getAccessor().invoke(options);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException(e);
            }
            into.setProperty(PREFIX + c.getName(), encode(v));
        }
    }

    static CopyOptions read(Properties from) throws java.io.IOException {
        RecordComponent[] components = CopyOptions.class.getRecordComponents();
        Object[] args = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            RecordComponent c = components[i];
            types[i] = c.getType();
            String text = from.getProperty(PREFIX + c.getName());
            if (text == null && c.getType() == boolean.class) {
                // A plan made before this option existed: it was not given.
                text = "false";
            }
            if (text == null) {
                throw new java.io.IOException("plan has no option " + c.getName());
            }
            args[i] = decode(c, text);
        }
        try {
            Constructor<CopyOptions> ctor = CopyOptions.class.getDeclaredConstructor(types);
            return ctor.newInstance(args);
        } catch (ReflectiveOperationException | RuntimeException e) {
            Throwable cause = e instanceof InvocationTargetException t ? t.getCause() : e;
            throw new java.io.IOException("plan has invalid options: " + cause.getMessage());
        }
    }

    private static String encode(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Set<?> set) {
            List<String> names = new ArrayList<>();
            set.forEach(a -> names.add(((Enum<?>) a).name()));
            names.sort(null);
            return String.join(",", names);
        }
        if (v instanceof List<?> list) {
            List<String> parts = new ArrayList<>();
            list.forEach(s -> parts.add(Base64.getEncoder().encodeToString(((String) s).getBytes(StandardCharsets.UTF_8))));
            return String.join(",", parts);
        }
        if (v instanceof Enum<?> e) {
            return e.name();
        }
        if (v instanceof String s) {
            return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
        }
        return v.toString();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object decode(RecordComponent c, String text) {
        Class<?> t = c.getType();
        if (t == boolean.class) {
            return Boolean.parseBoolean(text);
        }
        if (t == int.class) {
            return Integer.parseInt(text);
        }
        if (t == long.class) {
            return Long.parseLong(text);
        }
        if (t == String.class) {
            return new String(Base64.getDecoder().decode(text), StandardCharsets.UTF_8);
        }
        if (t == Set.class) {
            EnumSet<Attribute> set = EnumSet.noneOf(Attribute.class);
            for (String s : text.split(",")) {
                if (!s.isEmpty()) {
                    set.add(Attribute.valueOf(s));
                }
            }
            return set;
        }
        if (t == List.class) {
            List<String> list = new ArrayList<>();
            for (String s : text.split(",")) {
                if (!s.isEmpty()) {
                    list.add(new String(Base64.getDecoder().decode(s), StandardCharsets.UTF_8));
                }
            }
            return list;
        }
        if (t.isEnum()) {
            return text.isEmpty() ? null : Enum.valueOf((Class<? extends Enum>) t, text);
        }
        throw new IllegalStateException("option " + c.getName() + " of type " + t + " cannot be stored in a plan");
    }
}
