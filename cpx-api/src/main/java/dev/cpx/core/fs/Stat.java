package dev.cpx.core.fs;

import dev.cpx.spi.support.PrivateFields;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The attributes of one file, read once: what {@code stat(2)} returns. Read through the JDK's
 * own attribute object (one system call, no map): its methods when {@code sun.nio.fs} is open to
 * us, else its fields ({@link PrivateFields}); where neither works, through the {@code unix:}
 * attribute view.
 */
public record Stat(int mode, long size, long dev, long ino, long nlink, int uid, int gid, long rdev,
        FileTime atime, FileTime mtime, FileTime ctime) {

    public static final int S_IFMT = 0170000;
    public static final int S_IFSOCK = 0140000;
    public static final int S_IFLNK = 0120000;
    public static final int S_IFREG = 0100000;
    public static final int S_IFBLK = 0060000;
    public static final int S_IFDIR = 0040000;
    public static final int S_IFCHR = 0020000;
    public static final int S_IFIFO = 0010000;

    private static final String UNIX_ATTRIBUTES = "unix:mode,size,dev,ino,nlink,uid,gid,rdev,lastAccessTime,lastModifiedTime,ctime";

    private static final MethodHandle MODE, DEV, INO, NLINK, UID, GID, RDEV, CTIME;
    /** Without reflection: UnixFileAttributes' fields, in this order. */
    private static final String[] FIELDS = {"st_mode", "st_dev", "st_ino", "st_nlink", "st_uid", "st_gid", "st_rdev",
        "st_ctime_sec", "st_ctime_nsec"};
    /** Null where the methods above are usable (or neither way is). */
    private static final PrivateFields.Slot[] SLOTS;

    static {
        MethodHandle[] h = new MethodHandle[8];
        try {
            Class<?> c = Class.forName("sun.nio.fs.UnixFileAttributes");
            if (!PrivateFields.opened(c)) {
                throw new IllegalAccessException("sun.nio.fs is not opened");
            }
            String[] names = {"mode", "dev", "ino", "nlink", "uid", "gid", "rdev", "ctime"};
            for (int i = 0; i < names.length; i++) {
                var m = c.getDeclaredMethod(names[i]);
                m.setAccessible(true);
                h[i] = MethodHandles.lookup().unreflect(m).asType(MethodType.methodType(
                        m.getReturnType(), PosixFileAttributes.class));
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            h = new MethodHandle[8];
        }
        MODE = h[0];
        DEV = h[1];
        INO = h[2];
        NLINK = h[3];
        UID = h[4];
        GID = h[5];
        RDEV = h[6];
        CTIME = h[7];
        // After MODE is set: the fields are read only where the methods are not accessible.
        SLOTS = MODE != null ? null : slots();
    }

    private static PrivateFields.Slot[] slots() {
        Class<?>[] types = {int.class, long.class, long.class, int.class, int.class, int.class, long.class, long.class, long.class};
        PrivateFields.Slot[] slots = new PrivateFields.Slot[FIELDS.length];
        for (int i = 0; i < FIELDS.length; i++) {
            slots[i] = PrivateFields.find("sun.nio.fs.UnixFileAttributes", FIELDS[i], types[i]).orElse(null);
            if (slots[i] == null) {
                return null;
            }
        }
        return slots;
    }

    /** Whether attributes come in one system call, without the {@code unix:} view's map. */
    private static boolean direct() {
        return MODE != null || SLOTS != null;
    }

    /** {@code lstat}: attributes of the link itself when {@code path} is a symbolic link. */
    public static Stat lstat(Path path) throws IOException {
        return read(path, Links.options(false));
    }

    /** {@code stat}: attributes of what {@code path} finally points to. */
    public static Stat stat(Path path) throws IOException {
        return read(path, Links.options(true));
    }

    public static Stat of(Path path, boolean followLinks) throws IOException {
        return read(path, Links.options(followLinks));
    }

    /**
     * {@code fstatat} relative to an open directory; {@code path} is the same entry's full path,
     * used where the JDK's attribute object is not accessible.
     */
    public static Stat at(SecureDirectoryStream<Path> dir, Path name, Path path, boolean followLinks) throws IOException {
        if (direct()) {
            PosixFileAttributeView view = dir.getFileAttributeView(name, PosixFileAttributeView.class,
                    Links.options(followLinks));
            return from(view.readAttributes());
        }
        return read(path, Links.options(followLinks));
    }

    private static Stat read(Path path, LinkOption[] options) throws IOException {
        if (direct()) {
            return from(Files.readAttributes(path, PosixFileAttributes.class, options));
        }
        Map<String, Object> a = Files.readAttributes(path, UNIX_ATTRIBUTES, options);
        return new Stat((Integer) a.get("mode"), (Long) a.get("size"), (Long) a.get("dev"), (Long) a.get("ino"),
                ((Number) a.get("nlink")).longValue(), (Integer) a.get("uid"), (Integer) a.get("gid"),
                (Long) a.get("rdev"), (FileTime) a.get("lastAccessTime"), (FileTime) a.get("lastModifiedTime"),
                (FileTime) a.get("ctime"));
    }

    private static Stat from(PosixFileAttributes a) throws IOException {
        if (MODE == null) {
            PrivateFields.Slot[] f = SLOTS;
            if (!f[0].owner().isInstance(a)) {
                throw new IOException("unexpected attributes " + a.getClass().getName());
            }
            return new Stat(f[0].getInt(a), a.size(), f[1].getLong(a), f[2].getLong(a), f[3].getInt(a) & 0xFFFFFFFFL,
                    f[4].getInt(a), f[5].getInt(a), f[6].getLong(a), a.lastAccessTime(), a.lastModifiedTime(),
                    time(f[7].getLong(a), (int) f[8].getLong(a)));
        }
        try {
            return new Stat((int) MODE.invokeExact(a), a.size(), (long) DEV.invokeExact(a), (long) INO.invokeExact(a),
                    ((Number) NLINK.invoke(a)).longValue(), (int) UID.invokeExact(a), (int) GID.invokeExact(a),
                    (long) RDEV.invokeExact(a), a.lastAccessTime(), a.lastModifiedTime(), (FileTime) CTIME.invoke(a));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException(e);
        }
    }

    /** The attributes a native {@code stat} read ({@link dev.cpx.spi.Descriptors}), times as the JDK makes them. */
    public static Stat of(dev.cpx.spi.FileStatus s) {
        return new Stat(s.mode(), s.size(), s.dev(), s.ino(), s.nlink(), s.uid(), s.gid(), s.rdev(),
                time(s.atimeSeconds(), s.atimeNanos()), time(s.mtimeSeconds(), s.mtimeNanos()),
                time(s.ctimeSeconds(), s.ctimeNanos()));
    }

    /**
     * {@code lstat} of {@code name} in the open {@code directory} ({@code AT_FDCWD}: a path from the
     * working directory) through {@code descriptors}; null when nothing is there, without an exception.
     */
    public static Stat ifThere(dev.cpx.spi.Descriptors descriptors, int directory, byte[] name) throws IOException {
        dev.cpx.spi.FileStatus s = descriptors.statusIfThere(directory, name);
        return s == null ? null : of(s);
    }

    /** A time as {@code sun.nio.fs.UnixFileAttributes} makes it, so times compare and print alike. */
    private static FileTime time(long seconds, int nanos) {
        if (nanos == 0) {
            return FileTime.from(seconds, TimeUnit.SECONDS);
        }
        try {
            return FileTime.from(Math.addExact(nanos, Math.multiplyExact(seconds, 1_000_000_000L)), TimeUnit.NANOSECONDS);
        } catch (ArithmeticException e) {
            return FileTime.from(seconds * 1_000_000L + nanos / 1_000, TimeUnit.MICROSECONDS);
        }
    }

    /** {@code lstat}, or null when it fails. */
    public static Stat lstatOrNull(Path p) {
        try {
            return lstat(p);
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code stat}, or null when it fails. */
    public static Stat statOrNull(Path p) {
        try {
            return stat(p);
        } catch (IOException e) {
            return null;
        }
    }

    public int type() {
        return mode & S_IFMT;
    }

    public boolean isDirectory() {
        return type() == S_IFDIR;
    }

    public boolean isRegular() {
        return type() == S_IFREG;
    }

    public boolean isSymlink() {
        return type() == S_IFLNK;
    }

    /** FIFO, socket, character or block device. */
    public boolean isSpecial() {
        int t = type();
        return t == S_IFIFO || t == S_IFSOCK || t == S_IFCHR || t == S_IFBLK;
    }

    /** Permission bits including set-uid, set-gid and sticky. */
    public int permissions() {
        return mode & 07777;
    }

    /** Same device and inode: the same file. */
    public boolean sameFile(Stat other) {
        return other != null && dev == other.dev && ino == other.ino;
    }
}
