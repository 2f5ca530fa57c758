package dev.cpx.core.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cpx.api.Attribute;
import dev.cpx.api.BackupMode;
import dev.cpx.api.CopyMode;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.Dereference;
import dev.cpx.core.fs.Stat;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GNU cp's same-file matrix (the scenes and options of coreutils' own {@code tests/cp/same-file.sh},
 * with {@code VERSION_CONTROL=numbered}), decided in memory: for each source/destination pair and
 * option set, what the destination check decides. The expected column is what GNU cp 9.1 does
 * (refuses as the same file, does nothing, or goes on, backing up or removing the destination
 * first); {@code SameFileDifferentialTest} in cpx-cli runs the same rows through {@code /usr/bin/cp}
 * and cpx and compares the trees, which proves this table.
 */
class SameFileMatrixTest {

    /** Source and destination, options, GNU cp 9.1's decision. */
    static final String TABLE = """
            foo symlink |       | same file
            foo symlink | -d    | same file
            foo symlink | -f    | same file
            foo symlink | -df   | same file
            foo symlink | --rem | go, remove first
            foo symlink | -b    | go, backup first
            foo symlink | -bd   | go, backup first
            foo symlink | -bf   | go, backup first
            foo symlink | -bdf  | go, backup first
            foo symlink | -l    | go, existing
            foo symlink | -dl   | go, existing
            foo symlink | -fl   | go, existing
            foo symlink | -dfl  | go, existing
            foo symlink | -bl   | go, backup first
            foo symlink | -bdl  | go, backup first
            foo symlink | -bfl  | go, backup first
            foo symlink | -bdfl | go, backup first
            foo symlink | -s    | go, existing
            foo symlink | -sf   | go, existing
            symlink foo |       | same file
            symlink foo | -d    | same file
            symlink foo | -f    | same file
            symlink foo | -df   | same file
            symlink foo | --rem | same file
            symlink foo | -b    | same file
            symlink foo | -bd   | go, backup first
            symlink foo | -bf   | same file
            symlink foo | -bdf  | go, backup first
            symlink foo | -l    | keep nothing to do
            symlink foo | -dl   | keep nothing to do
            symlink foo | -fl   | keep nothing to do
            symlink foo | -dfl  | keep nothing to do
            symlink foo | -bl   | keep nothing to do
            symlink foo | -bdl  | go, backup first
            symlink foo | -bfl  | keep nothing to do
            symlink foo | -bdfl | go, backup first
            symlink foo | -s    | same file
            symlink foo | -sf   | same file
            foo foo     |       | same file
            foo foo     | -d    | same file
            foo foo     | -f    | same file
            foo foo     | -df   | same file
            foo foo     | --rem | same file
            foo foo     | -b    | same file
            foo foo     | -bd   | same file
            foo foo     | -bf   | backup copy
            foo foo     | -bdf  | backup copy
            foo foo     | -l    | keep nothing to do
            foo foo     | -dl   | keep nothing to do
            foo foo     | -fl   | keep nothing to do
            foo foo     | -dfl  | keep nothing to do
            foo foo     | -bl   | keep nothing to do
            foo foo     | -bdl  | keep nothing to do
            foo foo     | -bfl  | backup copy
            foo foo     | -bdfl | backup copy
            foo foo     | -s    | same file
            foo foo     | -sf   | same file
            sl1 sl2     |       | same file
            sl1 sl2     | -d    | go, remove first
            sl1 sl2     | -f    | same file
            sl1 sl2     | -df   | go, remove first
            sl1 sl2     | --rem | go, remove first
            sl1 sl2     | -b    | go, backup first
            sl1 sl2     | -bd   | go, backup first
            sl1 sl2     | -bf   | go, backup first
            sl1 sl2     | -bdf  | go, backup first
            sl1 sl2     | -l    | go, existing
            sl1 sl2     | -dl   | go, remove first
            sl1 sl2     | -fl   | go, existing
            sl1 sl2     | -dfl  | go, remove first
            sl1 sl2     | -bl   | go, backup first
            sl1 sl2     | -bdl  | go, backup first
            sl1 sl2     | -bfl  | go, backup first
            sl1 sl2     | -bdfl | go, backup first
            sl1 sl2     | -s    | go, existing
            sl1 sl2     | -sf   | go, existing
            foo hardlink|       | same file
            foo hardlink| -d    | same file
            foo hardlink| -f    | same file
            foo hardlink| -df   | same file
            foo hardlink| --rem | go, remove first
            foo hardlink| -b    | go, backup first
            foo hardlink| -bd   | go, backup first
            foo hardlink| -bf   | go, backup first
            foo hardlink| -bdf  | go, backup first
            foo hardlink| -l    | keep nothing to do
            foo hardlink| -dl   | keep nothing to do
            foo hardlink| -fl   | keep nothing to do
            foo hardlink| -dfl  | keep nothing to do
            foo hardlink| -bl   | keep nothing to do
            foo hardlink| -bdl  | keep nothing to do
            foo hardlink| -bfl  | keep nothing to do
            foo hardlink| -bdfl | keep nothing to do
            foo hardlink| -s    | same file
            foo hardlink| -sf   | same file
            hlsl sl2    |       | same file
            hlsl sl2    | -d    | keep nothing to do
            hlsl sl2    | -f    | same file
            hlsl sl2    | -df   | keep nothing to do
            hlsl sl2    | --rem | go, remove first
            hlsl sl2    | -b    | go, backup first
            hlsl sl2    | -bd   | go, backup first
            hlsl sl2    | -bf   | go, backup first
            hlsl sl2    | -bdf  | go, backup first
            hlsl sl2    | -l    | go, existing
            hlsl sl2    | -dl   | keep nothing to do
            hlsl sl2    | -fl   | go, existing
            hlsl sl2    | -dfl  | keep nothing to do
            hlsl sl2    | -bl   | go, backup first
            hlsl sl2    | -bdl  | keep nothing to do
            hlsl sl2    | -bfl  | go, backup first
            hlsl sl2    | -bdfl | keep nothing to do
            hlsl sl2    | -s    | go, existing
            hlsl sl2    | -sf   | go, existing
            """;

    private static final List<String> ARGS = List.of("foo symlink", "symlink foo", "foo foo", "sl1 sl2", "foo hardlink", "hlsl sl2");
    private static final List<String> OPTIONS = List.of("", "-d", "-f", "-df", "--rem", "-b", "-bd", "-bf", "-bdf", "-l", "-dl",
            "-fl", "-dfl", "-bl", "-bdl", "-bfl", "-bdfl", "-s", "-sf");

    static Scene scene(String args) {
        Scene s = new Scene().file("foo");
        if (args.contains("symlink")) {
            s.symlink("symlink", "foo");
        }
        if (args.contains("hardlink")) {
            s.link("hardlink", "foo");
        }
        if (args.contains("sl1")) {
            s.symlink("sl1", "foo");
        }
        if (args.contains("sl2")) {
            s.symlink("sl2", "foo");
        }
        if (args.contains("hlsl")) {
            s.link("hlsl", "sl2");
        }
        return s;
    }

    static CopyOptions options(String flags) {
        CopyOptions.Builder b = CopyOptions.builder();
        if (flags.equals("--rem")) {
            return b.removeDestination(true).build();
        }
        for (char c : flags.replace("-", "").toCharArray()) {
            switch (c) {
                case 'd' -> b.dereference(Dereference.NEVER).preserve(Attribute.LINKS);
                case 'f' -> b.force(true);
                case 'b' -> b.backup(BackupMode.NUMBERED);
                case 'l' -> b.mode(CopyMode.HARD_LINK);
                case 's' -> b.mode(CopyMode.SYMBOLIC_LINK);
                default -> throw new IllegalArgumentException(flags);
            }
        }
        return b.build();
    }

    /** The decision for one row, in the table's words. */
    static String decide(String args, String flags) {
        String[] names = args.split(" ");
        String src = names[0];
        String dst = names[1];
        Scene scene = scene(args);
        CopyOptions o = options(flags);
        if (ForcedBackup.applies(List.of(Path.of(src)), Path.of(dst), scene.stat(dst), o)) {
            // cp -bf foo foo copies foo to its backup name, without further backups.
            return "backup copy";
        }
        boolean follow = DestinationCheck.followsLinks(o, true);
        Stat st = follow ? scene.stat(src) : scene.lstat(src);
        DestinationCheck.Decision d = DestinationCheck.decide(
                new Entry(Path.of(src), Path.of(dst), st, Placement.OPERAND), o, !follow, scene.probe(src, dst, true));
        if (d instanceof DestinationCheck.Fail f) {
            return f.why().template().contains("same file") ? "same file" : "fail: " + f.why().template();
        }
        if (d instanceof DestinationCheck.Keep k) {
            return "keep " + k.reason().name().toLowerCase().replace('_', ' ');
        }
        DestinationCheck.Go g = (DestinationCheck.Go) d;
        return switch (g.prepare()) {
            case BACKUP -> "go, backup first";
            case UNLINK -> "go, remove first";
            case NONE -> g.newDestination() ? "go, new" : "go, existing";
        };
    }

    static Stream<Arguments> rows() {
        List<Arguments> rows = new ArrayList<>();
        for (String line : TABLE.strip().split("\n")) {
            String[] cells = line.split("\\|");
            rows.add(Arguments.of(cells[0].strip(), cells[1].strip(), cells[2].strip()));
        }
        return rows.stream();
    }

    @ParameterizedTest(name = "cp {1} {0}: {2}")
    @MethodSource("rows")
    void decidesAsGnuCp(String args, String flags, String expected) {
        assertEquals(expected, decide(args, flags));
    }

    @Test
    void theTableHasEveryRowOfTheMatrix() {
        assertEquals(ARGS.size() * OPTIONS.size(), rows().count());
        for (String args : ARGS) {
            for (String flags : OPTIONS) {
                assertEquals(1, rows().filter(r -> r.get()[0].equals(args) && r.get()[1].equals(flags)).count(), args + " " + flags);
            }
        }
    }
}
