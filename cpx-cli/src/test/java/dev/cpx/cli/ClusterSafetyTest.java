package dev.cpx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.testing.Trees;
import dev.cpx.testing.Unprivileged;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plan is input other people's processes could touch on a shared file system: workers refuse a
 * plan another user owns or can write, never follow a name out of the destination, and report a
 * chunk changed after planning instead of copying it. One test per refusal.
 */
class ClusterSafetyTest {

    @TempDir
    Path dir;

    private void plan(String... extra) throws Exception {
        Trees.generate(dir.resolve("src"));
        List<String> args = new java.util.ArrayList<>(List.of("--plan=plan", "-a"));
        args.addAll(List.of(extra));
        args.addAll(List.of("src", "dst"));
        Cli.Result r = Cli.cpx(dir, args.toArray(String[]::new));
        assertEquals(0, r.exit(), r::toString);
    }

    @Test
    void aPlanOwnedByAnotherUserIsRefused() throws Exception {
        plan();
        Unprivileged.own(dir.resolve("plan"));
        Cli.Result r = Cli.cpx(dir, "--work=plan");
        assertEquals(1, r.exit(), r::toString);
        assertEquals("cpx: refusing plan 'plan': owned by uid " + Unprivileged.uid() + ", not by uid 0\n", r.err());
        assertFalse(Files.exists(dir.resolve("dst")));
        Cli.Result finish = Cli.cpx(dir, "--finish=plan");
        assertEquals(1, finish.exit(), finish::toString);
        assertTrue(finish.err().startsWith("cpx: refusing plan 'plan': owned by uid"), finish::toString);
    }

    @Test
    void aPlanOthersCanWriteIsRefused() throws Exception {
        plan();
        Files.setAttribute(dir.resolve("plan/todo"), "unix:mode", 0777);
        Cli.Result r = Cli.cpx(dir, "--work=plan");
        assertEquals(1, r.exit(), r::toString);
        assertEquals("cpx: refusing plan 'plan/todo': other users can write to it (mode 0777)\n", r.err());
        assertFalse(Files.exists(dir.resolve("dst")));
    }

    @Test
    void aChunkChangedAfterPlanningIsReportedNotCopied() throws Exception {
        plan("--chunks=1");
        Path chunk = dir.resolve("plan/todo/00000001");
        byte[] b = Files.readAllBytes(chunk);
        String text = new String(b, StandardCharsets.ISO_8859_1);
        int at = text.indexOf("small.txt");
        assertTrue(at > 0);
        b[at] = 't';
        Files.write(chunk, b);
        Cli.Result r = Cli.cpx(dir, "--work=plan");
        assertEquals(1, r.exit(), r::toString);
        assertTrue(r.err().contains("chunk 00000001 not copied: changed after planning"), r::toString);
        assertFalse(Files.exists(dir.resolve("dst/small.txt")) || Files.exists(dir.resolve("dst/tmall.txt")));
        assertFalse(Files.exists(dir.resolve("dst/a/big.bin")), "nothing of a changed chunk is copied");
        Cli.Result finish = Cli.cpx(dir, "--finish=plan", "--json");
        assertEquals(1, finish.exit(), finish::toString);
        assertTrue(finish.err().contains("chunk 00000001 was not copied: changed after planning"), finish::toString);
        assertTrue(finish.out().contains("\"status\": \"failed\""), finish::toString);
    }

    /** A chunk and manifest forged together (the checksum matches): the names themselves are refused. */
    @Test
    void namesThatWouldLeaveTheDestinationAreRefused() throws Exception {
        Trees.generate(dir.resolve("src"));
        Files.createDirectories(dir.resolve("out"));
        Files.writeString(dir.resolve("leak"), "secret");
        Cli.Result p = Cli.cpx(dir, "--plan=plan", "--chunks=1", "-a", "src", "out/dst");
        assertEquals(0, p.exit(), p::toString);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            entry(out, "../leak");
            entry(out, "/etc/hostname");
            entry(out, "a/../../leak");
            entry(out, "small.txt");
            out.writeByte(0);
        }
        Files.write(dir.resolve("plan/todo/00000001"), bytes.toByteArray());
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(bytes.toByteArray());
        String sum = HexFormat.of().toHexDigits((int) crc.getValue());
        Files.writeString(dir.resolve("plan/manifest"), "cpx-plan-manifest 2\n00000001 4 0 " + sum + "\n");
        Cli.Result r = Cli.cpx(dir, "--work=plan");
        assertEquals(1, r.exit(), r::toString);
        assertTrue(r.err().contains("refusing ../leak in chunk 00000001: '.' or '..' in a name in plan"), r::toString);
        assertTrue(r.err().contains("refusing /etc/hostname in chunk 00000001: absolute name in plan"), r::toString);
        assertTrue(r.err().contains("refusing a/../../leak in chunk 00000001"), r::toString);
        assertFalse(Files.exists(dir.resolve("out/leak")));
        assertEquals("hello\n", Files.readString(dir.resolve("out/.dst.cpx-plan/small.txt")));
    }

    private static void entry(DataOutputStream out, String name) throws Exception {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        out.writeByte('f');
        out.writeInt(0);
        out.writeInt(n.length);
        out.write(n);
        out.writeLong(0);
        out.writeLong(0);
    }

    /**
     * A new destination tree is made under its staging name and appears under its own only when the
     * finish step renames it, never replacing what got that name meanwhile; finishing again after the
     * rename leaves the tree as it is.
     */
    @Test
    void aNewTreeAppearsWholeAtTheFinishAndNeverReplacesWhatTookItsName() throws Exception {
        plan();
        assertEquals(0, Cli.cpx(dir, "--work=plan").exit());
        assertFalse(Files.exists(dir.resolve("dst")), "no part of the copy under its name before the finish");
        assertEquals("hello\n", Files.readString(dir.resolve(".dst.cpx-plan/small.txt")));
        // Something took the name meanwhile: it is kept, the copy stays where it is, and finish says so.
        Files.createDirectories(dir.resolve("dst"));
        Cli.Result taken = Cli.cpx(dir, "--finish=plan");
        assertEquals(1, taken.exit(), taken::toString);
        assertTrue(taken.err().contains("cannot create directory '" + dir.resolve("dst") + "' (the copy is complete in '"
                + dir.resolve(".dst.cpx-plan") + "'): File exists"), taken::toString);
        try (var s = Files.list(dir.resolve("dst"))) {
            assertEquals(0, s.count(), "what took the name is left as it was");
        }
        Files.delete(dir.resolve("dst"));
        Cli.Result finish = Cli.cpx(dir, "--finish=plan");
        assertEquals(0, finish.exit(), finish::toString);
        assertFalse(Files.exists(dir.resolve(".dst.cpx-plan")));
        Trees.assertSameTree(dir.resolve("src"), dir.resolve("dst"), ClusterTest.ALL);
        Cli.Result again = Cli.cpx(dir, "--finish=plan");
        assertEquals(0, again.exit(), again::toString);
        assertFalse(Files.exists(dir.resolve(".dst.cpx-plan")), "not made again");
        Trees.assertSameTree(dir.resolve("src"), dir.resolve("dst"), ClusterTest.ALL);
    }

    /** A link planted where the workers write (the staging tree of a new destination) is refused, never followed. */
    @Test
    void aSymbolicLinkInTheDestinationIsNotFollowed() throws Exception {
        plan();
        Files.createDirectories(dir.resolve(".dst.cpx-plan"));
        aPlantedLinkIsRefused(dir.resolve(".dst.cpx-plan"), Path.of("../elsewhere"));
    }

    /**
     * A planned file that is a symbolic link by the time a worker copies it (the source changed, or
     * someone swapped it) is copied as the link it now is: opened without following it, never read
     * through it.
     */
    @Test
    void aFileSwappedForALinkAfterPlanningIsNotFollowed() throws Exception {
        plan();
        Files.writeString(dir.resolve("secret"), "secret\n");
        Files.delete(dir.resolve("src/small.txt"));
        Files.createSymbolicLink(dir.resolve("src/small.txt"), dir.resolve("secret"));
        Cli.Result r = Cli.cpx(dir, "--work=plan");
        assertEquals(0, r.exit(), r::toString);
        Path copy = dir.resolve(".dst.cpx-plan/small.txt");
        assertTrue(Files.isSymbolicLink(copy), "copied as what it is now: a link");
        assertEquals(dir.resolve("secret"), Files.readSymbolicLink(copy));
        Cli.Result finish = Cli.cpx(dir, "--finish=plan");
        assertEquals(0, finish.exit(), finish::toString);
        assertTrue(Files.isSymbolicLink(dir.resolve("dst/small.txt")));
    }

    /** The same into a destination that existed when planned (not staged: the workers write in it). */
    @Test
    void aSymbolicLinkInAnExistingDestinationIsNotFollowed() throws Exception {
        Trees.generate(dir.resolve("src"));
        Files.createDirectories(dir.resolve("dst/src"));
        Cli.Result p = Cli.cpx(dir, "--plan=plan", "-a", "src", "dst");
        assertEquals(0, p.exit(), p::toString);
        aPlantedLinkIsRefused(dir.resolve("dst/src"), Path.of("../../elsewhere"));
    }

    /**
     * With a symbolic link to {@code elsewhere} planted as {@code into/many} (a directory of the plan),
     * a worker refuses it, writes nothing through it, and copies the rest into {@code into}.
     */
    private void aPlantedLinkIsRefused(Path into, Path link) throws Exception {
        Files.createDirectories(dir.resolve("elsewhere"));
        Files.createSymbolicLink(into.resolve("many"), link);
        Cli.Result r = Cli.cpx(dir, "--work=plan");
        assertEquals(1, r.exit(), r::toString);
        assertTrue(r.err().contains("refusing to follow the symbolic link '" + into.resolve("many")
                + "' in the destination"), r::toString);
        try (var s = Files.list(dir.resolve("elsewhere"))) {
            assertEquals(0, s.count(), "something was written through the link");
        }
        assertEquals("hello\n", Files.readString(into.resolve("small.txt")));
    }

    /**
     * A split file's staging name is cpx's own: a symbolic link or a second name of another file
     * planted there is refused, never written through, and the file does not appear under its name.
     */
    @Test
    void aLinkPlantedAtAStagingNameIsRefused() throws Exception {
        ClusterTrees.huge(dir.resolve("src"));
        Cli.Result p = Cli.cpx(dir, "--plan=plan", "--split-size=1M", "-a", "src", "dst");
        assertEquals(0, p.exit(), p::toString);
        Files.createDirectories(dir.resolve(".dst.cpx-plan/huge"));
        Files.writeString(dir.resolve("victim"), "victim");
        Files.writeString(dir.resolve("victim2"), "victim2");
        Files.createSymbolicLink(dir.resolve(".dst.cpx-plan/huge/.one.cpx-ranges"), dir.resolve("victim"));
        Files.createLink(dir.resolve(".dst.cpx-plan/huge/.two.cpx-ranges"), dir.resolve("victim2"));
        Cli.Result r = Cli.cpx(dir, "--work=plan");
        assertEquals(1, r.exit(), r::toString);
        assertTrue(r.err().contains("refusing '" + dir.resolve(".dst.cpx-plan/huge/.one.cpx-ranges")
                + "': not a regular file of this user's with one name"), r::toString);
        assertTrue(r.err().contains("refusing '" + dir.resolve(".dst.cpx-plan/huge/.two.cpx-ranges") + "'"), r::toString);
        assertEquals("victim", Files.readString(dir.resolve("victim")));
        assertEquals("victim2", Files.readString(dir.resolve("victim2")));
        assertFalse(Files.exists(dir.resolve(".dst.cpx-plan/huge/one")) || Files.exists(dir.resolve(".dst.cpx-plan/huge/two")));
        assertTrue(Files.exists(dir.resolve(".dst.cpx-plan/huge/linked")), "what is not split is copied");
        Cli.Result finish = Cli.cpx(dir, "--finish=plan");
        assertEquals(1, finish.exit(), finish::toString);
        assertTrue(finish.err().contains("is not complete: 0 of 13 ranges copied"), finish::toString);
    }
}
