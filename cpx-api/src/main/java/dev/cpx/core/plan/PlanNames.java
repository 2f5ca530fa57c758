package dev.cpx.core.plan;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Names as a plan holds them: a path below a source operand and below its target, as bytes with
 * {@code /} between components. A name from a plan is input another process could have written:
 * {@link #components} accepts it only when it cannot lead outside the target (no absolute name, no
 * empty, {@code .} or {@code ..} component, no NUL).
 */
final class PlanNames {

    private PlanNames() {
    }

    /** Thrown for a name that could lead outside the destination. */
    static final class UnsafeName extends Exception {
        UnsafeName(String message) {
            super(message);
        }
    }

    /** {@code parent/child} as bytes ({@code child} alone below the operand itself). */
    static byte[] join(byte[] parent, byte[] child) {
        if (parent.length == 0) {
            return child.clone();
        }
        byte[] b = new byte[parent.length + 1 + child.length];
        System.arraycopy(parent, 0, b, 0, parent.length);
        b[parent.length] = '/';
        System.arraycopy(child, 0, b, parent.length + 1, child.length);
        return b;
    }

    /** The name of {@code components} ({@link #components}' inverse): joined by {@code /}, empty for none. */
    static byte[] join(List<byte[]> components) {
        int length = Math.max(0, components.size() - 1);
        for (byte[] c : components) {
            length += c.length;
        }
        byte[] b = new byte[length];
        int at = 0;
        for (byte[] c : components) {
            if (at > 0) {
                b[at++] = '/';
            }
            System.arraycopy(c, 0, b, at, c.length);
            at += c.length;
        }
        return b;
    }

    /** The components of a name (none for the operand itself), refusing any that could escape. */
    static List<byte[]> components(byte[] name) throws UnsafeName {
        List<byte[]> list = new ArrayList<>();
        if (name.length == 0) {
            return list;
        }
        int start = 0;
        for (int i = 0; i <= name.length; i++) {
            if (i == name.length || name[i] == '/') {
                int len = i - start;
                if (len == 0) {
                    throw new UnsafeName(start == 0 ? "absolute name in plan" : "empty name component in plan");
                }
                if ((len == 1 && name[start] == '.') || (len == 2 && name[start] == '.' && name[start + 1] == '.')) {
                    throw new UnsafeName("'.' or '..' in a name in plan");
                }
                byte[] c = new byte[len];
                System.arraycopy(name, start, c, 0, len);
                list.add(c);
                start = i + 1;
            } else if (name[i] == 0) {
                throw new UnsafeName("NUL byte in a name in plan");
            }
        }
        return list;
    }

    /** Writes {@code name} to a plan file: its length, then its bytes. */
    static void write(java.io.DataOutputStream out, byte[] name) throws java.io.IOException {
        out.writeInt(name.length);
        out.write(name);
    }

    /** Reads a name {@link #write} wrote, refusing a length out of bounds or a file that ends early. */
    static byte[] read(java.io.DataInputStream in) throws java.io.IOException {
        int length = in.readInt();
        if (length < 0 || length > 1 << 20) {
            throw new java.io.IOException("bad name length " + length);
        }
        byte[] name = in.readNBytes(length);
        if (name.length != length) {
            throw new java.io.IOException("truncated name");
        }
        return name;
    }

    /** A name for messages (invalid bytes shown as U+FFFD). */
    static String show(byte[] name) {
        return new String(name, StandardCharsets.UTF_8);
    }
}
