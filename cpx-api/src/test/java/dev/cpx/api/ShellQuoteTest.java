package dev.cpx.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Names quoted as GNU cp 9.1 quotes them in {@code -v}'s lines, in a UTF-8 locale and in C: /usr/bin/cp is the judge. */
class ShellQuoteTest {

    private static final Path GNU_CP = Path.of("/usr/bin/cp");

    /** Names as bytes (hex): one for each branch (plain, shell-special, control, UTF-8 valid and not, quotes), then generated mixes of them. */
    static Stream<Arguments> names() {
        List<String> hex = new ArrayList<>();
        for (String plain : List.of("plain", "with space", "it's", "a$b", "{", "{x}", "~home", "a~", "#x", "x#", "'",
                "'start", "end'", "a'b c", "a\"b", "semi;colon", "back\\slash", "q?", "é", "é'", "日本語", "a'é")) {
            hex.add(HexFormat.of().formatHex(plain.getBytes(StandardCharsets.UTF_8)));
        }
        hex.add("746162096865726509"); // tab\there\t
        hex.add("6e65770a6c696e65"); // new\nline
        hex.add("fffe"); // not UTF-8
        hex.add("61ff27"); // a, an invalid byte, a quote
        hex.add("7f"); // DEL
        hex.add("01022703"); // control bytes around a quote
        hex.add("c3"); // a UTF-8 sequence cut short
        hex.add("e2808b"); // U+200B, a zero-width space
        hex.add("20"); // a space alone
        // And names made of pieces from every branch, 1 to 5 of them, drawn with a fixed seed.
        String[] pieces = {"61", "20", "27", "22", "24", "5c", "09", "0a", "01", "7f", "c3a9", "ff", "e2808b", "23", "7e", "7b", "c3"};
        Random random = new Random(20261207);
        for (int n = 0; n < 80; n++) {
            StringBuilder h = new StringBuilder();
            for (int k = 1 + random.nextInt(5); k > 0; k--) {
                h.append(pieces[random.nextInt(pieces.length)]);
            }
            hex.add(h.toString());
        }
        List<Arguments> all = new ArrayList<>();
        for (String h : hex) {
            all.add(Arguments.of(h, true));
            all.add(Arguments.of(h, false));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} utf8={1}")
    @MethodSource("names")
    void quotesAsGnuCpDoes(String hexName, boolean utf8, @TempDir Path dir) throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(GNU_CP), "GNU cp at " + GNU_CP);
        byte[] name = HexFormat.of().parseHex(hexName);
        Path only = Files.createDirectory(dir.resolve("only"));
        Files.createFile(only.resolve(PathBytes.path(name)));
        Files.createDirectory(dir.resolve("to"));
        // The shell's glob passes the name's bytes as they are; GNU cp prints "'SOURCE' -> 'TARGET'".
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", "cd only && exec " + GNU_CP + " -v -- * ../to/").directory(dir.toFile());
        pb.environment().put("LC_ALL", utf8 ? "C.UTF-8" : "C");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertEquals(0, p.waitFor(), new String(out, StandardCharsets.UTF_8));
        String line = new String(out, StandardCharsets.UTF_8);
        String expected = line.substring(0, line.lastIndexOf(" -> "));
        assertEquals(expected, ShellQuote.quote(name, utf8));
    }
}
