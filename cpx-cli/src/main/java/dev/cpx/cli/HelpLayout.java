package dev.cpx.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code cpx --help} laid out like {@code cp --help}: the usage lines, GNU cp's options in GNU's
 * order, then what cpx adds (engines, jobs, progress and the like), then GNU's notes on sparse
 * files, reflinks and backups.
 */
final class HelpLayout {

    /** GNU cp 9.1's options, in the order {@code cp --help} lists them. */
    private static final List<String> GNU_ORDER = List.of(
            "--archive", "--attributes-only", "--backup", "-b", "--copy-contents", "-d", "--force", "--interactive",
            "-H", "--link", "--dereference", "--no-clobber", "--no-dereference", "-p", "--preserve", "--no-preserve",
            "--parents", "--recursive", "--reflink", "--remove-destination", "--sparse", "--strip-trailing-slashes",
            "--symbolic-link", "--suffix", "--target-directory", "--no-target-directory", "--update", "--verbose",
            "--one-file-system", "-Z", "--context", "--help", "--version");

    private static final String SECTION_GNU = "gnuOptions";
    private static final String SECTION_CPX = "cpxOptions";
    private static final String SECTION_NOTES = "notes";

    private static final String NOTES = String.join("%n",
            "",
            "By default, sparse SOURCE files are detected by a crude heuristic and the",
            "corresponding DEST file is made sparse as well.  That is the behavior",
            "selected by --sparse=auto.  Specify --sparse=always to create a sparse DEST",
            "file whenever the SOURCE file contains a long enough sequence of zero bytes.",
            "Use --sparse=never to inhibit creation of sparse files.",
            "",
            "When --reflink[=always] is specified, perform a lightweight copy, where the",
            "data blocks are copied only when modified.  If this is not possible the copy",
            "fails, or if --reflink=auto is specified, fall back to a standard copy.",
            "Use --reflink=never to ensure a standard copy is performed.",
            "",
            "The backup suffix is '~', unless set with --suffix or SIMPLE_BACKUP_SUFFIX.",
            "The version control method may be selected via the --backup option or through",
            "the VERSION_CONTROL environment variable.  Here are the values:",
            "",
            "  none, off       never make backups (even if --backup is given)",
            "  numbered, t     make numbered backups",
            "  existing, nil   numbered if numbered backups exist, simple otherwise",
            "  simple, never   always make simple backups",
            "",
            "As a special case, cpx makes a backup of SOURCE when the force and backup",
            "options are given and SOURCE and DEST are the same name for an existing,",
            "regular file.",
            "");

    private HelpLayout() {
    }

    /** Installs the layout on {@code cmd}. */
    static void install(CommandLine cmd) {
        Map<String, CommandLine.IHelpSectionRenderer> sections = cmd.getHelpSectionMap();
        sections.put(SECTION_GNU, help -> render(help, gnuOptions(help)));
        sections.put(SECTION_CPX, help -> help.createHeading("%ncpx options:%n") + render(help, cpxOptions(help)));
        sections.put(SECTION_NOTES, help -> help.createHeading(NOTES));
        List<String> keys = new ArrayList<>(List.of(
                CommandLine.Model.UsageMessageSpec.SECTION_KEY_SYNOPSIS,
                CommandLine.Model.UsageMessageSpec.SECTION_KEY_DESCRIPTION,
                SECTION_GNU, SECTION_CPX, SECTION_NOTES,
                CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER));
        cmd.setHelpSectionKeys(keys);
    }

    private static List<OptionSpec> gnuOptions(Help help) {
        Map<String, OptionSpec> byName = new LinkedHashMap<>();
        for (OptionSpec o : help.commandSpec().options()) {
            for (String n : o.names()) {
                byName.put(n, o);
            }
        }
        List<OptionSpec> list = new ArrayList<>();
        for (String name : GNU_ORDER) {
            OptionSpec o = byName.get(name);
            if (o != null && !o.hidden() && !list.contains(o)) {
                list.add(o);
            }
        }
        return list;
    }

    private static List<OptionSpec> cpxOptions(Help help) {
        List<OptionSpec> gnu = gnuOptions(help);
        List<OptionSpec> rest = new ArrayList<>();
        for (OptionSpec o : help.commandSpec().options()) {
            if (!gnu.contains(o) && !o.hidden()) {
                rest.add(o);
            }
        }
        return rest;
    }

    private static String render(Help help, List<OptionSpec> options) {
        Help.Layout layout = help.createDefaultLayout();
        Help.IParamLabelRenderer labels = help.createDefaultParamLabelRenderer();
        for (OptionSpec o : options) {
            layout.addOption(o, labels);
        }
        return layout.toString();
    }
}
