package dev.cpx.spi;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The entries of one directory as {@code getdents64(2)} returns them: each name's bytes, its inode
 * number and its type ({@code d_type}, which says without a {@code stat} whether an entry is a regular
 * file), held compactly (one array of name bytes, no object per entry), as
 * {@link Descriptors#readDirectory} fills it. Not thread safe.
 *
 * @since 0.2.0
 */
public final class DirectoryEntries {

    /** {@code d_type}: the file system does not say; look with {@code stat}. */
    public static final int UNKNOWN = 0;
    public static final int FIFO = 1;
    public static final int CHARACTER_DEVICE = 2;
    public static final int DIRECTORY = 4;
    public static final int BLOCK_DEVICE = 6;
    public static final int REGULAR = 8;
    public static final int SYMLINK = 10;
    public static final int SOCKET = 12;

    private byte[] names = new byte[1024];
    private int used;
    /** Entry i's name is names[starts[i], starts[i + 1]). */
    private int[] starts = new int[33];
    private long[] inodes = new long[32];
    private byte[] types = new byte[32];
    private int size;

    /** Adds an entry whose name is {@code length} bytes of {@code from} at {@code offset} (absolute). */
    public void add(long inode, int type, ByteBuffer from, int offset, int length) {
        int at = reserve(inode, type, length);
        from.get(offset, names, at, length);
        used += length;
        starts[++size] = used;
    }

    /** Adds an entry. */
    public void add(long inode, int type, byte[] name) {
        int at = reserve(inode, type, name.length);
        System.arraycopy(name, 0, names, at, name.length);
        used += name.length;
        starts[++size] = used;
    }

    private int reserve(long inode, int type, int length) {
        if (size + 1 >= inodes.length) {
            int n = inodes.length * 2;
            inodes = Arrays.copyOf(inodes, n);
            types = Arrays.copyOf(types, n);
            starts = Arrays.copyOf(starts, n + 1);
        }
        if (used + length > names.length) {
            names = Arrays.copyOf(names, Math.max(names.length * 2, used + length));
        }
        inodes[size] = inode;
        types[size] = (byte) type;
        return used;
    }

    /** Number of entries. */
    public int size() {
        return size;
    }

    /** Entry {@code i}'s inode number ({@code d_ino}). */
    public long inode(int i) {
        check(i);
        return inodes[i];
    }

    /** Entry {@code i}'s type ({@code d_type}: {@link #REGULAR}, {@link #DIRECTORY}, ..., {@link #UNKNOWN}). */
    public int type(int i) {
        check(i);
        return types[i];
    }

    /** Entry {@code i}'s name, its exact bytes (no NUL). */
    public byte[] name(int i) {
        check(i);
        return Arrays.copyOfRange(names, starts[i], starts[i + 1]);
    }

    /** Forgets every entry (the storage is kept for the next directory). */
    public void clear() {
        size = 0;
        used = 0;
    }

    /**
     * The entries' indices ordered by inode number, entries with the same inode in the order read:
     * the order GNU cp copies a directory's entries in.
     */
    public int[] byInode() {
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        if (size > 1) {
            mergeSort(order, new int[size], 0, size);
        }
        return order;
    }

    /** Stable sort of a[from, to) by inode. */
    private void mergeSort(int[] a, int[] tmp, int from, int to) {
        if (to - from <= 16) {
            for (int i = from + 1; i < to; i++) {
                int v = a[i];
                long key = inodes[v];
                int j = i - 1;
                while (j >= from && inodes[a[j]] > key) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(a, tmp, from, mid);
        mergeSort(a, tmp, mid, to);
        if (inodes[a[mid - 1]] <= inodes[a[mid]]) {
            return;
        }
        System.arraycopy(a, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && inodes[tmp[i]] <= inodes[tmp[j]])) {
                a[k] = tmp[i++];
            } else {
                a[k] = tmp[j++];
            }
        }
    }

    private void check(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException(i);
        }
    }
}
