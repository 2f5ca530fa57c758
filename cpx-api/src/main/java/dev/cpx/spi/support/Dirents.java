package dev.cpx.spi.support;

import dev.cpx.spi.DirectoryEntries;
import java.nio.ByteBuffer;

/**
 * What one {@code getdents64} call put in a buffer ({@code struct linux_dirent64} records, native byte
 * order), added to {@link DirectoryEntries}; "." and ".." left out. Written once for every engine.
 *
 * @since 0.2.0
 */
public final class Dirents {

    private Dirents() {
    }

    /** Adds the records in the first {@code n} bytes of {@code b} to {@code into}. */
    public static void add(ByteBuffer b, long n, DirectoryEntries into) {
        // struct linux_dirent64 { u64 d_ino; s64 d_off; u16 d_reclen; u8 d_type; char d_name[]; }
        int at = 0;
        while (at < n) {
            long ino = b.getLong(at);
            int reclen = b.getShort(at + 16) & 0xffff;
            int type = b.get(at + 18) & 0xff;
            int name = at + 19;
            int end = name;
            int limit = at + reclen;
            while (end < limit && b.get(end) != 0) {
                end++;
            }
            int length = end - name;
            boolean dots = (length == 1 && b.get(name) == '.') || (length == 2 && b.get(name) == '.' && b.get(name + 1) == '.');
            if (!dots) {
                into.add(ino, type, b, name, length);
            }
            at += reclen;
        }
    }
}
