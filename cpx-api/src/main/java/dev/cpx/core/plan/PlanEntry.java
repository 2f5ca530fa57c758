package dev.cpx.core.plan;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;

/**
 * One non-directory entry of a plan: its source operand, its name below that operand as bytes
 * ({@code a/b/c}, empty for the operand itself), what it is, its size, and the hard-link group it
 * belongs to (0 for none; every name of a group is in the same chunk).
 *
 * @param operand index of the source operand
 * @param name path below the operand, components separated by {@code /}, as bytes
 * @param kind {@link #FILE}, {@link #SYMLINK} or {@link #SPECIAL}
 * @param size bytes of data (0 for links and special files)
 * @param linkGroup hard-link group, 0 for none; the group's first entry is the one copied
 */
record PlanEntry(int operand, byte[] name, byte kind, long size, long linkGroup) {

    static final byte FILE = 'f';
    static final byte SYMLINK = 'l';
    static final byte SPECIAL = 's';
    /** Marks the end of a list of entries. */
    private static final byte END = 0;

    void write(DataOutputStream out) throws IOException {
        out.writeByte(kind);
        out.writeInt(operand);
        out.writeInt(name.length);
        out.write(name);
        out.writeLong(size);
        out.writeLong(linkGroup);
    }

    static void writeEnd(DataOutputStream out) throws IOException {
        out.writeByte(END);
    }

    /** The next entry, or null at the end of the list. */
    static PlanEntry read(DataInputStream in) throws IOException {
        byte kind;
        try {
            kind = in.readByte();
        } catch (EOFException e) {
            throw new IOException("truncated list of entries");
        }
        if (kind == END) {
            return null;
        }
        if (kind != FILE && kind != SYMLINK && kind != SPECIAL) {
            throw new IOException("unknown entry kind " + kind);
        }
        int operand = in.readInt();
        int length = in.readInt();
        if (length < 0 || length > 1 << 20) {
            throw new IOException("bad name length " + length);
        }
        byte[] name = in.readNBytes(length);
        if (name.length != length) {
            throw new IOException("truncated name");
        }
        return new PlanEntry(operand, name, kind, in.readLong(), in.readLong());
    }
}
