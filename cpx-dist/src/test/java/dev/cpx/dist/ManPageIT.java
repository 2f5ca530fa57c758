package dev.cpx.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** share/man/man1/cpx.1 renders with man (or groff) without complaint, with the sections a man page has. */
class ManPageIT {

    @TempDir
    Path dir;

    @Test
    void rendersWithMan() throws Exception {
        Path man = Dist.tool("/usr/bin/man", "/bin/man");
        assumeTrue(man != null, "man is not installed here (the groff test below still renders the page)");
        Path root = Dist.unpackTar(dir);
        Dist.Result r = Dist.run(root, Map.of("MANPAGER", "cat", "MANWIDTH", "100", "LANG", "C.UTF-8"),
                man.toString(), "-l", "share/man/man1/cpx.1");
        assertEquals(0, r.exit(), r::toString);
        assertEquals("", r.err(), "no warnings from man or groff");
        assertRendered(r.out());
    }

    @Test
    void rendersWithGroffWithoutWarnings() throws Exception {
        Path groff = Dist.tool("/usr/bin/groff", "/bin/groff");
        assumeTrue(groff != null, "groff is not installed here");
        Path root = Dist.unpackTar(dir);
        Dist.Result r = Dist.run(root, Map.of(), groff.toString(), "-man", "-Tutf8", "-ww", "share/man/man1/cpx.1");
        assertEquals(0, r.exit(), r::toString);
        assertEquals("", r.err(), "groff -ww warns about nothing");
        assertRendered(r.out().replaceAll(".\b", ""));
    }

    private static void assertRendered(String page) {
        List<String> lines = Dist.lines(page);
        assertTrue(lines.get(0).matches("CPX\\(1\\) +cpx Manual +CPX\\(1\\)"), lines.get(0));
        for (String heading : new String[] {"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "ENVIRONMENT", "FILES",
            "SEE ALSO"}) {
            assertTrue(lines.contains(heading), "section " + heading + " in\n" + page);
        }
        assertTrue(lines.contains("       cpx - copy files and directory trees, in parallel, as GNU cp does"), page);
        // The synopsis keeps GNU's three usage forms, one per line.
        int synopsis = lines.indexOf("SYNOPSIS");
        assertEquals(List.of("       cpx [OPTION]... [-T] SOURCE DEST", "       cpx [OPTION]... SOURCE... DIRECTORY",
                "       cpx [OPTION]... -t DIRECTORY SOURCE..."), lines.subList(synopsis + 1, synopsis + 4));
        // Options come from the picocli model, single-name ones without a dangling comma.
        assertTrue(lines.contains("       --engine=ID"), page);
        assertTrue(lines.contains("       -j, --jobs=N"), page);
        assertTrue(lines.contains("       -d"), page);
        assertTrue(lines.get(lines.size() - 1).matches("cpx " + java.util.regex.Pattern.quote(Dist.VERSION) + " +.*CPX\\(1\\)"),
                lines.get(lines.size() - 1));
    }
}
