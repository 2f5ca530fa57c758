package dev.cpx.cli;

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

/**
 * Names in {@code -v}'s lines as GNU cp writes them, character by character, in C.UTF-8 and in C:
 * what the C library prints is shown, the rest escaped. The JDK's own Unicode tables are of another
 * Unicode version than the C library's (JDK 17's older, JDK 25's newer than glibc 2.36's), so a
 * character assigned in one and not the other is the case this is about. The real cpx and
 * /usr/bin/cp each copy ~250 files named with code points from every plane and class and with byte
 * sequences that are not UTF-8, given by the shell's glob; their standard output must be the same.
 */
class NameQuotingTest {

    private static final Path GNU_CP = Path.of("/usr/bin/cp");

    @TempDir
    Path dir;

    static Stream<Arguments> runs() {
        List<Arguments> all = new ArrayList<>();
        for (String locale : List.of("C.UTF-8", "C")) {
            all.add(Arguments.of(locale, "native", List.of()));
            all.add(Arguments.of(locale, "nio", List.of()));
            if (Runtime.version().feature() >= 24) {
                // The ffm engine's native support instead of JNA's.
                all.add(Arguments.of(locale, "ffm", List.of("-Dcpx.ffm=prefer")));
            }
        }
        return all.stream();
    }

    /** The names: a numbered prefix, then one character or byte sequence each. */
    private static List<byte[]> names() {
        List<byte[]> tails = new ArrayList<>();
        int[] fixed = {0x80, 0x9f, 0xa0, 0xad, 0xbf, 0xe9, 0x300, 0x34f, 0x378, 0x5be, 0x600, 0x61c, 0x870, 0x897, 0x1df5,
            0x200b, 0x200d, 0x200e, 0x2028, 0x2029, 0x202e, 0x2060, 0x2066, 0x2c2f, 0x3000, 0x3164, 0xa7cb, 0xa7dd, 0xd7ff,
            0xe000, 0xf8ff, 0xfdd0, 0xfeff, 0xfff9, 0xfffc, 0xfffd, 0xfffe, 0xffff, 0x10000, 0x11f00, 0x1f600, 0x1f1e6,
            0x1fa7c, 0x1fae8, 0x2ebf0, 0x31350, 0xe0001, 0xe0100, 0xf0000, 0x10fffd, 0x10ffff};
        List<Integer> codePoints = new ArrayList<>();
        for (int cp : fixed) {
            codePoints.add(cp);
        }
        Random random = new Random(7);
        for (int n = 0; n < 200; n++) {
            int cp;
            do {
                cp = n % 3 == 0 ? 0x80 + random.nextInt(0x800 - 0x80) : n % 3 == 1 ? 0x800 + random.nextInt(0x10000 - 0x800)
                        : 0x10000 + random.nextInt(0x110000 - 0x10000);
            } while (cp >= 0xd800 && cp <= 0xdfff);
            codePoints.add(cp);
        }
        for (int cp : codePoints) {
            tails.add(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
        }
        for (String h : List.of("c080", "eda080", "edbfbf", "f4908080", "f5808080", "f880808080", "80", "bf", "e282", "f09f98",
                "c3c3", "e2e282ac", "fe", "c1bf", "27c3a9", "01c3a927")) {
            tails.add(HexFormat.of().parseHex(h));
        }
        List<byte[]> names = new ArrayList<>();
        for (int i = 0; i < tails.size(); i++) {
            byte[] prefix = String.format("%03d-", i).getBytes(StandardCharsets.US_ASCII);
            byte[] name = new byte[prefix.length + tails.get(i).length];
            System.arraycopy(prefix, 0, name, 0, prefix.length);
            System.arraycopy(tails.get(i), 0, name, prefix.length, tails.get(i).length);
            names.add(name);
        }
        return names;
    }

    @ParameterizedTest(name = "LC_ALL={0} engine={1}")
    @MethodSource("runs")
    void verboseLinesQuoteEveryKindOfCharacterAsGnuCp(String locale, String engine, List<String> jvm) throws Exception {
        assumeTrue(Files.isExecutable(GNU_CP), "GNU cp at " + GNU_CP);
        Path only = Files.createDirectory(dir.resolve("only"));
        for (byte[] name : names()) {
            Files.createFile(only.resolve(PathBytes.path(name)));
        }
        List<String> gnu = new ArrayList<>(List.of(GNU_CP.toString()));
        byte[] expected = copyAll(locale, gnu);
        List<String> cpx = new ArrayList<>(Cli.stagedJavaCommand("cpx"));
        cpx.addAll(1, jvm);
        cpx.add("--engine=" + engine);
        byte[] actual = copyAll(locale, cpx);
        assertEquals(new String(expected, StandardCharsets.UTF_8), new String(actual, StandardCharsets.UTF_8));
    }

    /**
     * The one message of cp whose name GNU quotes only where it needs it ({@code quotef}: the name
     * before a colon): {@code cp -s} of relative names into another directory refuses each. Names that
     * need no quoting, names that do (a colon among them), escapes and UTF-8, in C.UTF-8 and C.
     */
    @ParameterizedTest(name = "LC_ALL={0} engine={1}")
    @MethodSource("runs")
    void namesBeforeAColonAreQuotedOnlyWhereGnuQuotesThem(String locale, String engine, List<String> jvm) throws Exception {
        assumeTrue(Files.isExecutable(GNU_CP), "GNU cp at " + GNU_CP);
        Path only = Files.createDirectory(dir.resolve("only"));
        List<String> hex = new ArrayList<>();
        for (String plain : List.of("plain", "a-b_c.d,e+f%g@h]", "with space", "a:b", "q?", "it's", "a$b", "x=y", "{", "{x}", "}",
                "#x", "x#", "~x", "x~", "[x", "x]", "a\\b", "é", "日本語", "é'")) {
            hex.add(HexFormat.of().formatHex(plain.getBytes(StandardCharsets.UTF_8)));
        }
        hex.addAll(List.of("7109", "710a", "7101", "717f", "71ff", "71c3", "71e2808b", "71f09f9880", "71eda080"));
        for (String h : hex) {
            Files.createFile(only.resolve(PathBytes.path(HexFormat.of().parseHex(h))));
        }
        byte[] expected = refusals(locale, List.of(GNU_CP.toString()), GNU_CP.toString());
        List<String> cpx = new ArrayList<>(Cli.stagedJavaCommand("cpx"));
        cpx.addAll(1, jvm);
        cpx.add("--engine=" + engine);
        byte[] actual = refusals(locale, cpx, "cpx");
        assertEquals(new String(expected, StandardCharsets.UTF_8), new String(actual, StandardCharsets.UTF_8));
    }

    /** {@code command -s -- * ../d/} in {@code only}: its standard error, each line without the program's name. */
    private byte[] refusals(String locale, List<String> command, String program) throws IOException, InterruptedException {
        Files.createDirectories(dir.resolve("d"));
        List<String> cmd = new ArrayList<>(List.of("/bin/sh", "-c", "cd only && exec \"$@\" -s -- * ../d/", "sh"));
        cmd.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().put("LC_ALL", locale);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        byte[] err = p.getErrorStream().readAllBytes();
        assertEquals(1, p.waitFor(), new String(err, StandardCharsets.UTF_8));
        String text = new String(err, StandardCharsets.ISO_8859_1).replace(program + ": ", "");
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Runs {@code command -v -- * ../to/} in {@code only} (the shell's glob passes the names' bytes as they are); its standard output. */
    private byte[] copyAll(String locale, List<String> command) throws IOException, InterruptedException {
        Path to = dir.resolve("to");
        if (Files.exists(to)) {
            // The earlier run's copy moved aside, so that each copies into an empty directory.
            Files.move(to, Files.createTempDirectory(dir, "done").resolve("to"));
        }
        Files.createDirectory(to);
        List<String> cmd = new ArrayList<>(List.of("/bin/sh", "-c", "cd only && exec \"$@\" -v -- * ../to/", "sh"));
        cmd.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().put("LC_ALL", locale);
        Path err = Files.createTempFile(dir, "err", ".txt");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertEquals(0, p.waitFor(), String.join(" ", command) + ": " + Files.readString(err, StandardCharsets.ISO_8859_1));
        return out;
    }
}
