package dev.cpx.dist;

import dev.cpx.cli.CpxCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * Writes the distribution's generated files from the picocli model of {@code cpx}, at build time:
 * the man page source (AsciiDoc, which Asciidoctor turns into troff) and the bash and zsh completion
 * scripts, in the layout of the distribution's {@code share/} folder.
 */
public final class DistDocs {

    /** The command's name in the distribution. */
    static final String NAME = "cpx";

    private DistDocs() {
    }

    /** {@code DistDocs OUTDIR}: writes {@code OUTDIR/man/cpx-generated.adoc} and {@code OUTDIR/share/...}. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: DistDocs OUTDIR");
        }
        write(Path.of(args[0]));
    }

    static void write(Path out) throws IOException {
        CommandLine cmd = commandLine();
        write(out.resolve("man/" + NAME + "-generated.adoc"), ManPageSource.of(cmd.getCommandSpec()));
        CompletionScripts scripts = CompletionScripts.of(NAME, cmd);
        write(out.resolve("share/bash-completion/completions/" + NAME), scripts.bash());
        write(out.resolve("share/zsh/site-functions/_" + NAME), scripts.zsh());
    }

    static CommandLine commandLine() {
        CommandLine cmd = new CommandLine(new CpxCommand().spec());
        cmd.setCommandName(NAME);
        return cmd;
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
