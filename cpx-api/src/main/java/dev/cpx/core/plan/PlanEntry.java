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
record PlanEntry(int operand, byte[] name, byte kind, long size, long linkGroup, Range range) {

    /**
     * The part of a big file that a {@link #RANGE} entry copies: {@code length} bytes at {@code offset},
     * range {@code index} of {@code count} of the plan's split file {@code file} (see {@link SplitFiles}).
     */
    record Range(long file, int index, int count, long offset, long length) {
    }

    PlanEntry(int operand, byte[] name, byte kind, long size, long linkGroup) {
        this(operand, name, kind, size, linkGroup, null);
    }

    static final byte FILE = 'f';
    /** A byte range of a regular file split across chunks; {@code size} is the whole file's. */
    static final byte RANGE = 'r';
    static final byte SYMLINK = 'l';
    static final byte SPECIAL = 's';
    /** Marks the end of a list of entries. */
    private static final byte END = 0;

    void write(DataOutputStream out) throws IOException {
        out.writeByte(kind);
        out.writeInt(operand);
        PlanNames.write(out, name);
        out.writeLong(size);
        out.writeLong(linkGroup);
        if (kind == RANGE) {
            out.writeLong(range.file());
            out.writeInt(range.index());
            out.writeInt(range.count());
            out.writeLong(range.offset());
            out.writeLong(range.length());
        }
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
        if (kind != FILE && kind != SYMLINK && kind != SPECIAL && kind != RANGE) {
            throw new IOException("unknown entry kind " + kind);
        }
        int operand = in.readInt();
        byte[] name = PlanNames.read(in);
        long size = in.readLong();
        long linkGroup = in.readLong();
        if (kind != RANGE) {
            return new PlanEntry(operand, name, kind, size, linkGroup);
        }
        Range r = new Range(in.readLong(), in.readInt(), in.readInt(), in.readLong(), in.readLong());
        if (r.count() < 1 || r.index() < 0 || r.index() >= r.count() || r.offset() < 0 || r.length() < 0
                || r.offset() + r.length() > size) {
            throw new IOException("bad range entry");
        }
        return new PlanEntry(operand, name, kind, size, linkGroup, r);
    }
}
