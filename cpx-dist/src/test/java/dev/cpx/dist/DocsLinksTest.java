package dev.cpx.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * README and the pages in docs/ as a reader meets them: every relative link (and its #anchor, by
 * GitHub's rule for heading ids) leads somewhere in the checkout, README's set-up commands are the
 * ones CI runs, and README stays short (the depth is in docs/).
 */
class DocsLinksTest {

    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} +(.+?)\\s*#*\\s*$");

    @Test
    void everyRelativeLinkResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
            boolean fence = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.startsWith("```")) {
                    fence = !fence;
                    continue;
                }
                if (fence) {
                    continue;
                }
                Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", "``"));
                while (m.find()) {
                    String problem = problem(page, m.group(1));
                    if (problem != null) {
                        broken.add(ROOT.relativize(page) + ":" + (i + 1) + ": " + m.group(1) + ": " + problem);
                    }
                }
            }
        }
        assertEquals(List.of(), broken, "links in README and docs/ that lead nowhere");
    }

    @Test
    void readmesSetUpCommandsAreTheOnesCiRuns() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        String ci = Files.readString(ROOT.resolve(".ci/run"), StandardCharsets.UTF_8);
        for (String command : List.of("./cpx -r /usr/share/doc ", "./mvnw -B verify")) {
            assertTrue(readme.contains(command), "README shows: " + command);
            assertTrue(ci.contains(command), ".ci/run runs: " + command);
        }
    }

    @Test
    void readmeIsShortAndOpensWithTheTableAndChart() throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        assertTrue(lines.size() < 300, "README.md has " + lines.size() + " lines; depth goes to docs/");
        String firstScreen = String.join("\n", lines.subList(0, Math.min(60, lines.size())));
        assertTrue(firstScreen.contains("| tree |"), "the benchmark table is on README's first screen");
        assertTrue(firstScreen.contains("](docs/benchmark.png)"), "the chart is near README's top");
        assertTrue(Files.isRegularFile(ROOT.resolve("docs/benchmark.png")), "the chart is committed");
    }

    /** Why {@code target}, linked from {@code page}, leads nowhere; null when it resolves. */
    private static String problem(Path page, String target) throws IOException {
        if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
            return null;                       // http:, https:, mailto: ... are not checked here
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!resolved.startsWith(ROOT)) {
            return "outside the checkout";
        }
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (hash >= 0 && resolved.toString().endsWith(".md") && !anchors(resolved).contains(target.substring(hash + 1))) {
            return "no such heading";
        }
        return null;
    }

    /** The ids GitHub gives a page's headings: lower case, punctuation dropped, spaces as '-', repeats numbered. */
    static Set<String> anchors(Path page) throws IOException {
        Set<String> ids = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fence = false;
        for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
            if (line.startsWith("```")) {
                fence = !fence;
                continue;
            }
            Matcher m = HEADING.matcher(line);
            if (!fence && m.matches()) {
                String id = m.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\- _]", "").replace(' ', '-');
                int n = seen.merge(id, 1, Integer::sum) - 1;
                ids.add(n == 0 ? id : id + "-" + n);
            }
        }
        return ids;
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("benchmarks/README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }
}
