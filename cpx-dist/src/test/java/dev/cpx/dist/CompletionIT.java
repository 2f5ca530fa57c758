package dev.cpx.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The completion scripts of the unpacked tarball, in real shells. */
class CompletionIT {

    @TempDir
    Path dir;

    /**
     * Sources the bash script and runs its completion function on the words bash would make of
     * {@code line} (bash splits words at '=', as with the default COMP_WORDBREAKS), as bash does on TAB.
     */
    private List<String> bashCompletions(Path root, String... words) throws Exception {
        StringBuilder array = new StringBuilder();
        for (String w : words) {
            array.append(" '").append(w.replace("'", "'\\''")).append('\'');
        }
        String script = "source share/bash-completion/completions/cpx\n"
                + "complete -p cpx\n"
                + "COMP_WORDS=(" + array + ")\n"
                + "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n"
                + "COMP_LINE=\"${COMP_WORDS[*]}\"\n"
                + "COMP_POINT=${#COMP_LINE}\n"
                + "_cpx_complete cpx \"${COMP_WORDS[COMP_CWORD]}\" \"${COMP_WORDS[COMP_CWORD-1]}\" 2>/dev/null\n"
                + "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
        Dist.Result r = Dist.run(root, Map.of(), "/bin/bash", "--norc", "--noprofile", "-c", script);
        assertEquals(0, r.exit(), r::toString);
        List<String> lines = Dist.lines(r.out());
        assertEquals("complete -o default -F _cpx_complete cpx", lines.get(0), "the script registers the completion for cpx");
        return lines.subList(1, lines.size()).stream().filter(l -> !l.isEmpty()).sorted().toList();
    }

    @Test
    void bashCompletesEngineValuesAfterTheEqualsSign() throws Exception {
        Path root = Dist.unpackTar(dir);
        assertEquals(List.of("auto", "ffm", "native", "nio"), bashCompletions(root, "cpx", "--engine", "="));
        assertEquals(List.of("native", "nio"), bashCompletions(root, "cpx", "-r", "--engine", "=", "n"));
        assertEquals(List.of("auto", "ffm", "native", "nio"), bashCompletions(root, "cpx", "--engine", ""));
        assertEquals(List.of("native"), bashCompletions(root, "cpx", "--engine", "na"));
    }

    @Test
    void bashKeepsTheOptionWhereEqualsIsNotAWordBreak() throws Exception {
        Path root = Dist.unpackTar(dir);
        assertEquals(List.of("--engine=native", "--engine=nio"), bashCompletions(root, "cpx", "--engine=n"));
    }

    @Test
    void bashCompletesOptionNames() throws Exception {
        Path root = Dist.unpackTar(dir);
        assertEquals(List.of("--list-engines"), bashCompletions(root, "cpx", "--list"));
        assertEquals(List.of("--recursive"), bashCompletions(root, "cpx", "--recu"));
        assertEquals(List.of("--reflink"), bashCompletions(root, "cpx", "--ref"));
    }

    @ParameterizedTest(name = "zsh: {0}<TAB> shows {1}")
    @CsvSource(delimiter = '|', value = {
        "cpx --engine=n|--engine=native  --engine=nio",
        "cpx --engine=na|cpx --engine=native ",
        "cpx --list-en|cpx --list-engines ",
        "cpx -r REA|cpx -r README.md "})
    void zshCompletes(String line, String expected) throws Exception {
        Path zsh = Dist.tool("/usr/bin/zsh", "/bin/zsh");
        assumeTrue(zsh != null, "zsh is not installed here (apt-get install zsh)");
        Path root = Dist.unpackTar(dir);
        Path driver = dir.resolve("zsh-complete.zsh");
        try (InputStream in = CompletionIT.class.getResourceAsStream("zsh-complete.zsh")) {
            Files.write(driver, in.readAllBytes());
        }
        Dist.Result r = Dist.run(root, Map.of("PATH", root.resolve("bin") + ":/usr/bin:/bin"), zsh.toString(), "-f",
                driver.toString(), root.resolve("share/zsh/site-functions").toString(), line, expected);
        assertEquals(0, r.exit(), r::toString);
        assertTrue(r.out().contains(expected), () -> "expected '" + expected + "' on the terminal:\n" + r);
        assertTrue(!r.out().contains("_cpx") && !r.out().contains("command not found"), () -> "no errors from the completion:\n" + r);
    }
}
