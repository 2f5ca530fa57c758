package dev.cpx.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpx.testing.Trees;
import dev.cpx.testing.Trees.Detail;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Debian package (target/cpx_VERSION-1_all.deb), as a user of apt meets it: lintian finds nothing
 * to say, and on this machine (as root, with apt) it installs with {@code apt-get install ./cpx_*.deb},
 * makes its class data sharing archive, copies a real tree as {@code cp -a} does, has its man page and
 * bash completion where man and bash find them, falls back cleanly when the archive no longer fits
 * the JVM, remakes it when the trigger on /usr/lib/jvm fires, and {@code apt-get remove --purge}
 * leaves the file list of /usr, /etc, /var, /opt and /srv as it was. The machine is left as found: the
 * package is purged whatever happens, and packages that apt pulled in are purged too.
 */
class DebPackageIT {

    static final Path DEB = Path.of(System.getProperty("cpx.dist.deb", ""));
    /** Where the package's postinst keeps the archive and the record of its Java. */
    static final Path STATE = Path.of("/var/cache/cpx");
    /** apt may wait for its lock (other installs on the machine) up to 600 s. */
    static final long APT_SECONDS = 900;
    static final Map<String, String> APT_ENV = Map.of("DEBIAN_FRONTEND", "noninteractive");

    /** Searched for files left behind; the rest of / is homes, work trees and kernel file systems. */
    static final List<Path> ROOTS = List.of(Path.of("/usr"), Path.of("/etc"), Path.of("/var"), Path.of("/opt"), Path.of("/srv"));
    /** Logs, apt's and dpkg's own bookkeeping and man-db's index: they change with any install, of any package. */
    static final Set<Path> VOLATILE = Set.of(Path.of("/var/log"), Path.of("/var/tmp"), Path.of("/var/cache/apt"), Path.of("/var/lib/apt"),
            Path.of("/var/lib/dpkg"), Path.of("/var/cache/debconf"), Path.of("/var/cache/man"), Path.of("/var/backups"),
            Path.of("/var/cache/ldconfig"));

    @TempDir
    Path dir;

    @Test
    void lintianFindsNoErrorsAndNoUnjustifiedWarnings() throws Exception {
        assertTrue(Files.isRegularFile(DEB), "the build made " + DEB);
        Path lintian = Dist.tool("/usr/bin/lintian");
        assumeTrue(lintian != null, "lintian is not installed (apt-get install lintian; .ci/run installs it)");
        Dist.Result r = Dist.run(dir, Map.of(), 300, lintian.toString(), "--fail-on", "error,warning", DEB.toString());
        List<String> findings = Dist.lines(r.out()).stream().filter(l -> l.matches("[EW]: .*")).toList();
        assertEquals(List.of(), findings, "each warning that stays is overridden, with its reason, in src/deb/lintian-overrides");
        assertEquals(0, r.exit(), r::toString);
    }

    @Test
    void installsCopiesAndPurgesWithoutATrace() throws Exception {
        assertTrue(Files.isRegularFile(DEB), "the build made " + DEB);
        assumeTrue("0".equals(Dist.run(dir, Map.of(), "id", "-u").out().strip()), "not root: installing a package needs root");
        assumeTrue(Dist.tool("/usr/bin/apt-get") != null && Dist.tool("/usr/bin/dpkg") != null, "no apt-get or dpkg: not a Debian system");
        Set<String> packagesBefore = installedPackages();
        assumeTrue(!packagesBefore.contains("cpx"), "a cpx package is installed already: this test would replace it, then remove it");

        Set<String> before = fileList();
        Set<String> ownedBefore = ownedByPackages();
        try {
            Dist.Result install = Dist.run(dir, APT_ENV, APT_SECONDS, "apt-get", "-o", "DPkg::Lock::Timeout=600", "install", "-y",
                    "--no-install-recommends", DEB.toAbsolutePath().toString());
            assertEquals(0, install.exit(), install::toString);
            assertTrue(installedPackages().contains("cpx"), install::toString);
            whatIsInstalledWorks();
        } finally {
            Dist.Result purge = Dist.run(dir, APT_ENV, APT_SECONDS, "apt-get", "-o", "DPkg::Lock::Timeout=600", "remove", "--purge", "-y", "cpx");
            Set<String> pulledIn = new TreeSet<>(installedPackages());
            pulledIn.removeAll(packagesBefore);
            if (!pulledIn.isEmpty()) {
                List<String> command = new ArrayList<>(List.of("apt-get", "-o", "DPkg::Lock::Timeout=600", "remove", "--purge", "-y"));
                command.addAll(pulledIn);
                Dist.run(dir, APT_ENV, APT_SECONDS, command.toArray(String[]::new));
            }
            assertEquals(0, purge.exit(), purge::toString);
        }
        assertFalse(installedPackages().contains("cpx"), "cpx is purged");
        // What other packages' installs and removals meanwhile changed (on a shared machine) is not cpx's
        // doing: dpkg never lets cpx's purge remove another package's file, nor leave one cpx owned.
        Set<String> after = fileList();
        Set<String> left = new TreeSet<>(after);
        left.removeAll(before);
        left.removeAll(ownedByPackages());
        Set<String> gone = new TreeSet<>(before);
        gone.removeAll(after);
        gone.removeAll(ownedBefore);
        assertEquals(Set.of(), left, "files the package left behind");
        assertEquals(Set.of(), gone, "files that were there before the package and are gone");
    }

    /** The checks while the package is installed. */
    private void whatIsInstalledWorks() throws Exception {
        Dist.Result list = Dist.run(dir, Map.of(), "dpkg", "-L", "cpx");
        for (String path : List.of("/usr/bin/cpx", "/usr/share/cpx/bin/cpx", "/usr/share/man/man1/cpx.1.gz",
                "/usr/share/bash-completion/completions/cpx", "/usr/share/zsh/vendor-completions/_cpx",
                "/usr/share/doc/cpx/copyright", "/usr/share/doc/cpx/changelog.Debian.gz")) {
            assertTrue(Dist.lines(list.out()).contains(path), path + " in dpkg -L cpx:\n" + list.out());
        }

        // postinst made the archive for the Java it found, and cpx runs with it.
        Path archive = recordedArchive();
        assertTrue(Files.isRegularFile(archive), archive + " made by postinst");
        Map<String, String> user = userEnv();
        Dist.Result version = Dist.run(dir, user, "cpx", "--version");
        assertEquals(0, version.exit(), version::toString);
        assertEquals("", version.err(), version::toString);
        assertTrue(version.out().startsWith("cpx " + Dist.VERSION + "\n"), version::toString);
        assertTrue(Dist.mainComesFromAnArchive(dir, user, "cpx"), "cpx's classes come from " + archive);

        // A real tree, copied as cp -a copies it (a snapshot of /usr/share/doc first, which apt may change meanwhile).
        Path src = dir.resolve("doc");
        assertEquals(0, Dist.run(dir, Map.of(), "cp", "-a", "/usr/share/doc", src.toString()).exit());
        Dist.Result cp = Dist.run(dir, user, "/usr/bin/cp", "-a", "doc", "by-cp");
        Dist.Result cpx = Dist.run(dir, user, "cpx", "-a", "doc", "by-cpx");
        assertEquals(cp, cpx);
        Trees.assertSameTree(dir.resolve("by-cp"), dir.resolve("by-cpx"), Detail.MODE, Detail.MTIME, Detail.OWNER, Detail.LINKS);
        // JNA's native part was unpacked by postinst, once: JNA unpacks nothing into the user's cache.
        assertTrue(Files.isRegularFile(STATE.resolve("jna/libjnidispatch.so")), "JNA's native part in " + STATE);
        Files.writeString(dir.resolve("one"), "data");
        Dist.Result nativeCopy = Dist.run(dir, user, "cpx", "--engine=native", "one", "two");
        assertEquals(new Dist.Result(0, "", ""), nativeCopy);
        assertEquals("data", Files.readString(dir.resolve("two")));
        try (var left = Files.list(Path.of(user.get("HOME")))) {
            assertEquals(List.of(), left.toList(), "what cpx wrote into the user's home");
        }

        // man and bash find what the package installed.
        if (Dist.tool("/usr/bin/man") != null) {
            Dist.Result man = Dist.run(dir, Map.of(), "man", "-w", "cpx");
            assertEquals(new Dist.Result(0, "/usr/share/man/man1/cpx.1.gz\n", ""), man);
        }
        Dist.Result completion = Dist.run(dir, Map.of(), "bash", "-c", "source /usr/share/bash-completion/completions/cpx && complete -p cpx");
        assertEquals(0, completion.exit(), completion::toString);
        assertTrue(completion.out().strip().startsWith("complete ") && completion.out().strip().endsWith(" cpx"), completion::toString);

        // An archive that no longer fits the JVM (one upgraded in place): cpx runs as before, without it.
        Files.write(archive, new byte[4096]);
        Dist.Result stale = Dist.run(dir, user, "cpx", "--version");
        assertEquals(version, stale, "a stale archive changes nothing that is printed");
        assertFalse(Dist.mainComesFromAnArchive(dir, user, "cpx"), "a stale archive is not used");

        // The trigger on /usr/lib/jvm (any Java package installed, upgraded or removed) remakes it.
        Dist.Result trigger = Dist.run(dir, APT_ENV, APT_SECONDS, "dpkg-trigger", "--by-package=cpx", "--no-await", "/usr/lib/jvm");
        assertEquals(0, trigger.exit(), trigger::toString);
        Dist.Result triggered = dpkgWhenUnlocked("--triggers-only", "cpx");
        assertEquals(0, triggered.exit(), triggered::toString);
        assertTrue(Dist.mainComesFromAnArchive(dir, user, "cpx"), "the trigger remade the archive: " + triggered);
    }

    /** dpkg with {@code args}, tried again while another install holds dpkg's lock (dpkg does not wait, as apt can), up to 600 s. */
    private Dist.Result dpkgWhenUnlocked(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("dpkg"));
        command.addAll(List.of(args));
        long end = System.nanoTime() + 600_000_000_000L;
        while (true) {
            Dist.Result r = Dist.run(dir, APT_ENV, APT_SECONDS, command.toArray(String[]::new));
            if (r.exit() == 0 || !r.err().contains("lock") || System.nanoTime() > end) {
                return r;
            }
            Thread.sleep(2000);
        }
    }

    /** The archive postinst recorded in /var/cache/cpx/cpx.conf. */
    private static Path recordedArchive() throws IOException {
        String conf = Files.readString(STATE.resolve("cpx.conf"));
        return Dist.lines(conf).stream().filter(l -> l.startsWith("cpx_installed_archive=")).findFirst()
                .map(l -> Path.of(l.substring("cpx_installed_archive=".length()))).orElseThrow(() -> new AssertionError(conf));
    }

    /**
     * A user's environment: the system's PATH and Java (no JAVA_HOME), a home of the test's own (for
     * what JNA or a fallback archive writes there).
     */
    private Map<String, String> userEnv() throws IOException {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", Files.createDirectories(dir.resolve("home")).toString());
        env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        env.put("XDG_CACHE_HOME", dir.resolve("home/.cache").toString());
        return env;
    }

    /** Names of the packages dpkg has installed (status "install ok installed", or half-configured ones). */
    private Set<String> installedPackages() throws Exception {
        Dist.Result r = Dist.run(dir, Map.of(), "dpkg-query", "-W", "-f", "${Package} ${db:Status-Abbrev}\n");
        assertEquals(0, r.exit(), r::toString);
        return Dist.lines(r.out()).stream().map(l -> l.split(" ")).filter(f -> f.length > 1 && f[1].matches("[iu][iUFWt]"))
                .map(f -> f[0]).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Every path under {@link #ROOTS}, on their own file systems, without the {@link #VOLATILE} ones. */
    private static Set<String> fileList() throws IOException {
        Set<String> paths = new TreeSet<>();
        for (Path root : ROOTS) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            Object device = Files.readAttributes(root, "unix:dev").get("dev");
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
                    if (VOLATILE.contains(d) || !device.equals(Files.readAttributes(d, "unix:dev").get("dev"))) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    paths.add(d.toString());
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
                    paths.add(f.toString());
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path f, IOException e) {
                    // Gone while walking (another process's temporary file): not the package's.
                    return FileVisitResult.CONTINUE;
                }
            });
        }
        return paths;
    }

    /** The paths that installed packages own now (dpkg's file lists). */
    private static Set<String> ownedByPackages() throws IOException {
        Set<String> owned = new HashSet<>();
        try (var lists = Files.newDirectoryStream(Path.of("/var/lib/dpkg/info"), "*.list")) {
            for (Path list : lists) {
                try {
                    // Decoded as Path.toString decodes names (UTF-8 here): compared as text only.
                    new String(Files.readAllBytes(list), StandardCharsets.UTF_8).lines().forEach(owned::add);
                } catch (NoSuchFileException e) {
                    // A package removed meanwhile.
                }
            }
        }
        return owned;
    }
}
