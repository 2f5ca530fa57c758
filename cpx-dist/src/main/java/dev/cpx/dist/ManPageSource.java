package dev.cpx.dist;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * The AsciiDoc of the man page, from picocli-codegen's {@link ManPageGenerator}, with two of its
 * renderings put right for a GNU-style command: the synopsis (a custom synopsis of several usage
 * lines, printed one per line without {@code Usage:}/{@code or:}) and options that have a single
 * name (rendered {@code -d, ::}, with a dangling comma). {@code src/main/man/cpx.adoc} includes its
 * tagged sections and adds the hand-written ones.
 */
final class ManPageSource {

    private static final String SYNOPSIS_TAG = "picocli-generated-man-section-synopsis";
    private static final Pattern SYNOPSIS = Pattern.compile(
            "(// tag::" + SYNOPSIS_TAG + "\\[\\]\\R).*?(// end::" + SYNOPSIS_TAG + "\\[\\])", Pattern.DOTALL);
    private static final Pattern DANGLING_COMMA = Pattern.compile("(?m)^(\\*-[^\\n]*?\\*), ::$");
    private static final Pattern USAGE_PREFIX = Pattern.compile("^\\s*(Usage:|or:)\\s*");

    private ManPageSource() {
    }

    static String of(CommandSpec spec) {
        StringWriter text = new StringWriter();
        try (PrintWriter pw = new PrintWriter(text)) {
            ManPageGenerator.writeSingleManPage(pw, spec);
        }
        String adoc = text.toString().replace("\r\n", "\n");
        adoc = DANGLING_COMMA.matcher(adoc).replaceAll("$1::");
        String[] synopsis = spec.usageMessage().customSynopsis();
        if (synopsis.length > 0) {
            Matcher m = SYNOPSIS.matcher(adoc);
            if (!m.find()) {
                throw new IllegalStateException("no synopsis section in the generated man page");
            }
            adoc = m.replaceFirst(Matcher.quoteReplacement(m.group(1) + synopsis(synopsis) + m.group(2)));
        }
        return adoc;
    }

    /** One line per usage form, as in GNU man pages: {@code cpx [OPTION]... SOURCE DEST}. */
    private static String synopsis(String[] lines) {
        StringBuilder sb = new StringBuilder("== Synopsis\n\n[%hardbreaks]\n");
        for (String line : lines) {
            String form = USAGE_PREFIX.matcher(line).replaceFirst("").strip();
            if (!form.isEmpty()) {
                sb.append(form).append('\n');
            }
        }
        return sb.append('\n').toString();
    }
}
