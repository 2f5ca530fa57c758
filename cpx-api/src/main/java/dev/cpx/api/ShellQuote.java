package dev.cpx.api;

import dev.cpx.spi.support.PathBytes;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.IntPredicate;

/**
 * Quotes file names the way GNU coreutils does in messages ({@code quoteaf}, gnulib's
 * "shell-escape-always" style): {@code 'name'}; {@code "it's"} when the only trouble is a single
 * quote; control characters and bytes that are not printable in the locale's character set as
 * {@code $'\n'} or {@code $'\377'} escapes. Works on the name's bytes, so undecodable names print
 * exactly as GNU cp prints them.
 */
public final class ShellQuote {

    private static final boolean UTF8_LOCALE = utf8Locale();

    /** Which characters print in the locale ({@link #printableBy}); null: the JDK's Unicode tables (no lambda at start). */
    private static volatile IntPredicate printable;

    private ShellQuote() {
    }

    /**
     * Tells characters that print from those written as escapes as {@code printable} does: the C
     * library's {@code iswprint}, as GNU cp asks it ({@link dev.cpx.spi.PosixExtras#printable}),
     * where the JDK's tables may be of another Unicode version (a character new in one is escaped by
     * the other). For the whole process: the command sets it once, before it copies.
     */
    public static void printableBy(IntPredicate printable) {
        ShellQuote.printable = java.util.Objects.requireNonNull(printable);
    }

    /** Quotes the exact bytes of {@code path}. */
    public static String quote(Path path) {
        return quote(PathBytes.of(path));
    }

    /**
     * Quotes {@code path} only where it needs it, as GNU's {@code quotef} does in the few messages that
     * put a name before a colon (gnulib's shell-escape style, colons quoted too): as it is where it
     * holds nothing a shell treats specially, else as {@link #quote(Path)} quotes it.
     */
    public static String quoteIfNeeded(Path path) {
        byte[] name = PathBytes.of(path);
        return needsQuoting(name, UTF8_LOCALE) ? quote(name, UTF8_LOCALE) : new String(name, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Whether GNU's {@code quotef} quotes {@code name}: empty, or a byte or character a shell (or a colon-separated message) would misread. */
    static boolean needsQuoting(byte[] name, boolean utf8) {
        for (int i = 0; i < name.length; ) {
            int character = character(name, i, utf8);
            if ((character & (SHELL | ESCAPED)) != 0 || name[i] == ':') {
                return true;
            }
            i += character >>> LENGTH;
        }
        return name.length == 0;
    }

    /** Quotes a string that may carry surrogate-escaped bytes (see {@link PathBytes}). */
    public static String quote(String text) {
        return quote(PathBytes.encode(text));
    }

    /** Quotes raw bytes as GNU's {@code quoteaf} does in the current locale. */
    public static String quote(byte[] name) {
        return quote(name, UTF8_LOCALE);
    }

    static String quote(byte[] name, boolean utf8) {
        Pass first = new Pass(name, utf8, false);
        if (!first.singleQuote) {
            return first.text;
        }
        if (first.allCompatible) {
            return '"' + new String(name, java.nio.charset.StandardCharsets.UTF_8) + '"';
        }
        // A name with a single quote and something else to escape is written a second time, as gnulib's
        // quotearg (coreutils 9.1) does after looking for the shorter "..." form: from the start, with
        // the first pass's $'...' escape still counted as open where it was at the end (it resets the
        // length, not that state). So "a'" and U+00E9 in the C locale print '''a'\'''$'\303\251', and
        // \001\002'\003 prints '\001\002'\'''$'\003', in GNU cp's messages and -v lines alike.
        return new Pass(name, utf8, first.escapeOpen).text;
    }

    /** One pass of gnulib's shell-escape-always quoting over a name. */
    private static final class Pass {
        final String text;
        final boolean singleQuote;
        final boolean allCompatible;
        /** Whether a {@code $'...'} escape was open at the end. */
        final boolean escapeOpen;

        Pass(byte[] name, boolean utf8, boolean escapeOpenAtStart) {
            StringBuilder out = new StringBuilder(name.length + 2);
            out.append('\'');
            boolean inEscape = escapeOpenAtStart;
            boolean quoteSeen = false;
            boolean compatibleSoFar = true;
            for (int i = 0; i < name.length; ) {
                int character = character(name, i, utf8);
                int c = name[i] & 0xFF;
                int len = character >>> LENGTH;
                if ((character & ESCAPED) != 0) {
                    if (!inEscape) {
                        out.append("'$'");
                        inEscape = true;
                    }
                    out.append(escape(c));
                    compatibleSoFar = false;
                } else if (c == '\'') {
                    // '\'' ends an open $'...' itself: no '' before it.
                    out.append("'\\''");
                    inEscape = false;
                    quoteSeen = true;
                } else {
                    if (inEscape) {
                        out.append("''");
                        inEscape = false;
                    }
                    if (len == 1) {
                        out.append((char) c); // printable ASCII: the byte is the character
                    } else {
                        out.append(new String(name, i, len, java.nio.charset.StandardCharsets.UTF_8));
                    }
                    if ((character & COMPATIBLE) == 0) {
                        compatibleSoFar = false;
                    }
                }
                i += len;
            }
            out.append('\'');
            this.text = out.toString();
            this.singleQuote = quoteSeen;
            this.allCompatible = compatibleSoFar;
            this.escapeOpen = inEscape;
        }
    }

    /** {@link #character}'s bits: the character may stand in the {@code "..."} form (gnulib's {@code c_and_shell_quote_compat}). */
    private static final int COMPATIBLE = 1;
    /** {@link #character}'s bits: a shell reads it specially, so {@code quotef} quotes the name. */
    private static final int SHELL = 2;
    /** {@link #character}'s bits: written as an escape ({@code $'\n'}, {@code $'\377'}). */
    private static final int ESCAPED = 4;
    /** {@link #character}'s length in bytes is above this many bits. */
    private static final int LENGTH = 8;

    /**
     * What the character at {@code i} is to gnulib's shell quoting, as its one switch classes it for
     * both styles: {@link #COMPATIBLE}, {@link #SHELL} and {@link #ESCAPED} bits, and the character's
     * length in bytes shifted by {@link #LENGTH} (more than one for a printable multibyte character).
     */
    private static int character(byte[] name, int i, boolean utf8) {
        int c = name[i] & 0xFF;
        if (c >= 0x80) {
            int len = utf8 ? printableUtf8Length(name, i) : 0;
            return len > 0 ? COMPATIBLE | len << LENGTH : ESCAPED | 1 << LENGTH;
        }
        int kind = switch (c) {
            case '\'', ' ' -> COMPATIBLE | SHELL;
            case '{', '}' -> name.length == 1 ? COMPATIBLE | SHELL : 0;
            case '#', '~' -> i == 0 ? COMPATIBLE | SHELL : 0;
            case '!', '"', '$', '&', '(', ')', '*', ';', '<', '=', '>', '[', '^', '`', '|', '\\', '?' -> SHELL;
            default -> c >= 0x20 && c < 0x7F ? COMPATIBLE : ESCAPED;
        };
        return kind | 1 << LENGTH;
    }

    /** A byte written as an escape: C's letter for the seven that have one, else three octal digits. */
    private static String escape(int c) {
        return switch (c) {
            case 7 -> "\\a";
            case 8 -> "\\b";
            case 9 -> "\\t";
            case 10 -> "\\n";
            case 11 -> "\\v";
            case 12 -> "\\f";
            case 13 -> "\\r";
            default -> String.format(Locale.ROOT, "\\%03o", c);
        };
    }

    /** Length of the printable UTF-8 character at {@code i}, or 0 if it is invalid or not printable. */
    private static int printableUtf8Length(byte[] b, int i) {
        int c = b[i] & 0xFF;
        int len;
        int cp;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            cp = c & 0x07;
        } else {
            return 0;
        }
        if (i + len > b.length) {
            return 0;
        }
        for (int k = 1; k < len; k++) {
            int cc = b[i + k] & 0xFF;
            if ((cc & 0xC0) != 0x80) {
                return 0;
            }
            cp = (cp << 6) | (cc & 0x3F);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return 0;
        }
        IntPredicate p = printable;
        return (p != null ? p.test(cp) : printableInJdk(cp)) ? len : 0;
    }

    /** Printable by the JDK's Unicode tables: assigned, not a control, surrogate or line or paragraph separator. */
    private static boolean printableInJdk(int cp) {
        int type = Character.getType(cp);
        return type != Character.CONTROL && type != Character.UNASSIGNED && type != Character.SURROGATE
                && type != Character.LINE_SEPARATOR && type != Character.PARAGRAPH_SEPARATOR;
    }

    private static boolean utf8Locale() {
        String[] vars = {"LC_ALL", "LC_CTYPE", "LANG"};
        for (String v : vars) {
            String value = System.getenv(v);
            if (value != null && !value.isEmpty()) {
                String lower = value.toLowerCase(Locale.ROOT);
                return lower.contains("utf-8") || lower.contains("utf8");
            }
        }
        return false;
    }
}
