package dev.cpx.core.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cpx.api.BackupMode;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.Dereference;
import dev.cpx.api.OverwritePolicy;
import dev.cpx.core.fs.Stat;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The order of GNU cp's checks of an existing destination, one rule a row: each scene is the
 * smallest that tells the rule apart from its neighbours (what comes first when two apply).
 */
class DestinationCheckTest {

    private static final FileTime OLD = FileTime.fromMillis(1_000L);
    private static final FileTime NEW = FileTime.fromMillis(2_000L);

    record Row(String name, Scene scene, String src, String dst, UnaryOperator<CopyOptions.Builder> options,
            boolean answer, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Row row(String name, Scene scene, String src, String dst, UnaryOperator<CopyOptions.Builder> options,
            String expected) {
        return new Row(name, scene, src, dst, options, true, expected);
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("absent destination", new Scene().file("a"), "a", "b", b -> b, "go, new"),
                row("a regular file is written into", new Scene().file("a").file("b"), "a", "b", b -> b, "go, existing"),
                row("-n keeps it", new Scene().file("a").file("b"), "a", "b", b -> b.overwrite(OverwritePolicy.NO_CLOBBER),
                        "keep no clobber"),
                row("-n comes before the same-file check", new Scene().file("a"), "a", "a",
                        b -> b.overwrite(OverwritePolicy.NO_CLOBBER), "keep no clobber"),
                new Row("-i answered no", new Scene().file("a").file("b"), "a", "b", b -> b.overwrite(OverwritePolicy.ASK), false,
                        "keep declined"),
                new Row("-i asks before directory against non-directory", new Scene().file("a").dir("b"), "a", "b",
                        b -> b.overwrite(OverwritePolicy.ASK), false, "keep declined"),
                row("a directory is not replaced by a file", new Scene().file("a").dir("b"), "a", "b", b -> b,
                        "fail: cannot overwrite directory {0} with non-directory"),
                row("a file is not replaced by a directory", new Scene().dir("a").file("b"), "a", "b", b -> b.recursive(true),
                        "fail: cannot overwrite non-directory {0} with directory {1}"),
                row("a directory merges into a directory", new Scene().dir("a").dir("b"), "a", "b", b -> b.recursive(true),
                        "go, existing"),
                row("-u keeps a newer destination", new Scene().file("a", OLD).file("b", NEW), "a", "b", b -> b.update(true),
                        "keep up to date"),
                row("-u keeps one as new", new Scene().file("a", NEW).file("b", NEW), "a", "b", b -> b.update(true),
                        "keep up to date"),
                row("-u replaces an older destination", new Scene().file("a", NEW).file("b", OLD), "a", "b", b -> b.update(true),
                        "go, existing"),
                row("--backup moves it aside", new Scene().file("a").file("b"), "a", "b", b -> b.backup(BackupMode.SIMPLE),
                        "go, backup first"),
                row("--backup makes no backup of a directory", new Scene().dir("a").dir("b"), "a", "b",
                        b -> b.recursive(true).backup(BackupMode.SIMPLE), "go, existing"),
                row("--remove-destination removes it", new Scene().file("a").file("b"), "a", "b", b -> b.removeDestination(true),
                        "go, remove first"),
                row("a symlink copied with -P replaces what is there", new Scene().symlink("a", "x").file("b"), "a", "b",
                        b -> b.dereference(Dereference.NEVER), "go, remove first"),
                row("--attributes-only never removes it", new Scene().symlink("a", "x").file("b"), "a", "b",
                        b -> b.dereference(Dereference.NEVER).mode(dev.cpx.api.CopyMode.ATTRIBUTES_ONLY), "go, existing"),
                row("--attributes-only with -s does not remove it either (the link fails on it)",
                        new Scene().symlink("a", "x").file("b"), "a", "b",
                        b -> b.dereference(Dereference.NEVER).mode(dev.cpx.api.CopyMode.SYMBOLIC_LINK).attributesOnly(true),
                        "go, existing"),
                row("--attributes-only with -l keeps one with other names",
                        new Scene().file("a").file("b").link("c", "b"), "a", "b",
                        b -> b.preserve(dev.cpx.api.Attribute.LINKS).mode(dev.cpx.api.CopyMode.HARD_LINK).attributesOnly(true),
                        "go, existing"),
                row("-s alone replaces it", new Scene().symlink("a", "x").file("b"), "a", "b",
                        b -> b.dereference(Dereference.NEVER).mode(dev.cpx.api.CopyMode.SYMBOLIC_LINK), "go, remove first"),
                row("a destination with other names is replaced with --preserve=links",
                        new Scene().file("a").file("b").link("c", "b"), "a", "b", b -> b.preserve(dev.cpx.api.Attribute.LINKS),
                        "go, remove first"),
                row("a dangling symlink is not written through", new Scene().file("a").symlink("b", "nowhere"), "a", "b", b -> b,
                        "fail: not writing through dangling symlink {0}"),
                row("a dangling symlink is replaced with --remove-destination", new Scene().file("a").symlink("b", "nowhere"),
                        "a", "b", b -> b.removeDestination(true), "go, remove first"),
                row("a looping symlink cannot be looked at", new Scene().file("a").symlink("b", "c").symlink("c", "b"), "a", "b",
                        b -> b, "fail: cannot stat {0}"),
                row("a looping symlink is removed with -f", new Scene().file("a").symlink("b", "c").symlink("c", "b"), "a", "b",
                        b -> b.force(true), "go, unknown"),
                row("a symlink to the source is written through: the same file", new Scene().file("a").symlink("b", "a"), "a", "b",
                        b -> b, "fail: {0} and {1} are the same file"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void decides(Row r) {
        CopyOptions o = r.options().apply(CopyOptions.builder()).build();
        boolean follow = DestinationCheck.followsLinks(o, true);
        Stat st = follow ? r.scene().stat(r.src()) : r.scene().lstat(r.src());
        DestinationCheck.Decision d = DestinationCheck.decide(new Entry(Path.of(r.src()), Path.of(r.dst()), st, Placement.OPERAND), o, !follow, r.scene().probe(r.src(), r.dst(), r.answer()));
        assertEquals(r.expected(), describe(d));
    }

    static String describe(DestinationCheck.Decision d) {
        if (d instanceof DestinationCheck.Fail f) {
            return "fail: " + f.why().template();
        }
        if (d instanceof DestinationCheck.Keep k) {
            return "keep " + k.reason().name().toLowerCase().replace('_', ' ');
        }
        DestinationCheck.Go g = (DestinationCheck.Go) d;
        return switch (g.prepare()) {
            case BACKUP -> "go, backup first";
            case UNLINK -> "go, remove first";
            case NONE -> g.newDestination() ? "go, new" : g.destination() == null ? "go, unknown" : "go, existing";
        };
    }

    @ParameterizedTest(name = "mode {0} is {1}")
    @org.junit.jupiter.params.provider.CsvSource({"0, ---------", "0644, rw-r--r--", "04755, rwsr-xr-x", "04644, rwSr--r--",
        "02750, rwxr-s---", "01777, rwxrwxrwt", "01776, rwxrwxrwT"})
    void modeLettersAreThoseOfLs(String octal, String letters) {
        assertEquals(letters, DestinationCheck.modeLetters(Integer.parseInt(octal, 8)));
    }
}
