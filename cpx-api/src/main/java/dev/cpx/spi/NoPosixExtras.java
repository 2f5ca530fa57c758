package dev.cpx.spi;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.util.List;

/** {@link PosixExtras#none()}: times through NIO, no extended attributes, nothing else. */
final class NoPosixExtras implements PosixExtras {

    static final NoPosixExtras INSTANCE = new NoPosixExtras();

    private static final String REASON = "Operation not supported";

    private NoPosixExtras() {
    }

    /** The failure of an operation that cannot be done here. */
    static IOException unsupported(Path path) {
        return new FileSystemException(path == null ? null : path.toString(), null, REASON);
    }

    @Override
    public Availability availability() {
        return Availability.unavailable("no native support loaded");
    }

    @Override
    public void makeNode(Path path, int mode, long rdev) throws IOException {
        throw new FileSystemException(path.toString(), null, REASON + " (no native support loaded)");
    }

    /** Through NIO: to the microsecond on links on JDK 17; opens the file, so never for a FIFO. */
    @Override
    public void setTimes(Path path, FileTime lastAccess, FileTime lastModified, boolean followLinks) throws IOException {
        LinkOption[] links = followLinks ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
        Files.getFileAttributeView(path, BasicFileAttributeView.class, links).setTimes(lastModified, lastAccess, null);
    }

    @Override
    public List<String> listXattrs(Path path, boolean followLinks) {
        return List.of();
    }

    @Override
    public byte[] getXattr(Path path, String name, boolean followLinks) throws IOException {
        throw unsupported(path);
    }

    @Override
    public void setXattr(Path path, String name, byte[] value, boolean followLinks) throws IOException {
        throw unsupported(path);
    }
}
