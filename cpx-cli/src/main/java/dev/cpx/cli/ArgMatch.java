package dev.cpx.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Option values read as GNU's {@code argmatch} reads them: the exact word, or any prefix of one
 * that is not a prefix of a word meaning something else ({@code --sparse=al}, {@code --backup=nu});
 * synonyms ({@code none}/{@code off}) never make a prefix ambiguous. A value that matches nothing
 * or more than one meaning is a usage error in GNU's shape:
 *
 * <pre>
 * cp: invalid argument 'bogus' for '--sparse'
 * Valid arguments are:
 *   - 'never'
 *   - 'auto'
 *   - 'always'
 * Try 'cp --help' for more information.
 * </pre>
 *
 * (synonyms share one line: {@code   - 'none', 'off'}). The quotes are GNU's {@code quote()}:
 * ‘curly’ in a UTF-8 locale, 'straight' otherwise.
 */
final class ArgMatch<T> {

    private final String context;
    private final String[] words;
    private final T[] meanings;

    /**
     * @param context  what the value is for, as GNU names it: {@code --sparse}, {@code backup type}
     * @param words    the valid words, in GNU's order, synonyms next to each other
     * @param meanings what each word means (same length)
     */
    ArgMatch(String context, String[] words, T[] meanings) {
        if (words.length != meanings.length) {
            throw new IllegalArgumentException("one meaning per word");
        }
        this.context = context;
        this.words = words.clone();
        this.meanings = meanings.clone();
    }

    /** The same words for another context ({@code $VERSION_CONTROL} for {@code backup type}). */
    ArgMatch<T> as(String otherContext) {
        return new ArgMatch<>(otherContext, words, meanings);
    }

    /** What {@code value} means; an {@link Invalid} (a usage error) when it matches no word or more than one meaning. */
    T match(CommandLine cmd, String value) {
        T found = null;
        boolean ambiguous = false;
        for (int i = 0; i < words.length; i++) {
            if (words[i].equals(value)) {
                return meanings[i];
            }
            if (words[i].startsWith(value)) {
                if (found == null) {
                    found = meanings[i];
                } else if (!found.equals(meanings[i])) {
                    ambiguous = true;
                }
            }
        }
        if (found == null || ambiguous) {
            throw new Invalid(cmd, found == null ? "invalid" : "ambiguous", value, this);
        }
        return found;
    }

    /** GNU's list: one line per meaning, its synonyms on that line. */
    String validList(boolean curly) {
        StringBuilder sb = new StringBuilder("Valid arguments are:");
        for (int i = 0; i < words.length; i++) {
            if (i == 0 || !meanings[i].equals(meanings[i - 1])) {
                sb.append("\n  - ");
            } else {
                sb.append(", ");
            }
            sb.append(quote(words[i], curly));
        }
        return sb.toString();
    }

    /** An invalid or ambiguous value: GNU's lines, or one line for places that take one (the defaults file). */
    static final class Invalid extends ParameterException {
        private static final long serialVersionUID = 1L;
        private final String oneLine;

        Invalid(CommandLine cmd, String kind, String value, ArgMatch<?> match) {
            super(cmd, kind + " argument " + quote(value, curlyQuotes()) + " for " + quote(match.context, curlyQuotes())
                    + "\n" + match.validList(curlyQuotes()));
            StringBuilder sb = new StringBuilder(kind + " argument " + quote(value, false) + " for "
                    + quote(match.context, false) + "; valid arguments are ");
            for (int i = 0; i < match.words.length; i++) {
                sb.append(i == 0 ? "" : ", ").append(quote(match.words[i], false));
            }
            this.oneLine = sb.toString();
        }

        /** The message on one line, straight quotes: {@code invalid argument 'x' for '--progress'; valid arguments are 'auto', ...}. */
        String oneLine() {
            return oneLine;
        }
    }

    /** GNU's {@code quote()}: locale quotes around the text, backslash escapes for backslashes and control characters. */
    static String quote(String s, boolean curly) {
        StringBuilder sb = new StringBuilder(curly ? "\u2018" : "'");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        sb.append(String.format("\\%03o", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append(curly ? "\u2019" : "'").toString();
    }

    private static volatile Boolean curly;

    /** Whether GNU would use ‘curly’ quotes: the C library's locale (LC_ALL, else LC_CTYPE, else LANG) is a UTF-8 one that exists. */
    static boolean curlyQuotes() {
        Boolean c = curly;
        if (c == null) {
            c = curlyQuotes(System.getenv());
            curly = c;
        }
        return c;
    }

    /** Sets the quote style (tests; null: from the environment again). */
    static void useCurlyQuotes(Boolean value) {
        curly = value;
    }

    static boolean curlyQuotes(Map<String, String> env) {
        String name = null;
        for (String key : new String[] {"LC_ALL", "LC_CTYPE", "LANG"}) {
            String v = env.get(key);
            if (v != null && !v.isEmpty()) {
                name = v;
                break;
            }
        }
        if (name == null) {
            return false;
        }
        String lower = name.toLowerCase(Locale.ROOT);
        int dot = lower.indexOf('.');
        if (dot < 0) {
            return false;
        }
        String charset = lower.substring(dot + 1).replaceAll("@.*", "");
        if (!charset.equals("utf-8") && !charset.equals("utf8")) {
            return false;
        }
        if (lower.startsWith("c.")) {
            return true; // C.UTF-8 is built into glibc 2.35 and later, and Debian ships it
        }
        // Any other locale is in effect only where it was generated; else the C library falls back to C.
        String base = name.substring(0, dot);
        return Files.isDirectory(Path.of("/usr/lib/locale", base + ".utf8"))
                || Files.isDirectory(Path.of("/usr/lib/locale", base + ".UTF-8"))
                || Files.exists(Path.of("/usr/lib/locale/locale-archive"));
    }
}
