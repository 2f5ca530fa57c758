package dev.cpx.core.plan;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The plan's table of chunks: for each, how many entries and bytes it holds and the CRC-32C of its
 * file, so a chunk changed after planning is found out before anything of it is copied. Written
 * last: a plan without it is incomplete. A checksum against change, not a signature: who could
 * rewrite a chunk could rewrite this table too, which is why workers refuse a plan directory that
 * another user owns or can write ({@link PlanDirectory#checkOwned}). CRC-32C rather than SHA-256:
 * the JVM's quick compiler, which cpx runs with, has an intrinsic for the one and none for the
 * other (SHA-256 of the Linux tree's plan took 100 ms of its 0.6 s).
 */
final class Manifest {

    /** One chunk's line. */
    record Chunk(String name, long entries, long bytes, int checksum) {
    }

    private static final String HEADER = "cpx-plan-manifest 2";

    private final Map<String, Chunk> chunks;

    private Manifest(Map<String, Chunk> chunks) {
        this.chunks = chunks;
    }

    Chunk get(String name) {
        return chunks.get(name);
    }

    List<Chunk> chunks() {
        return new ArrayList<>(chunks.values());
    }

    long totalBytes() {
        return chunks.values().stream().mapToLong(Chunk::bytes).sum();
    }

    static String render(List<Chunk> list) {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        for (Chunk c : list) {
            sb.append(c.name()).append(' ').append(c.entries()).append(' ').append(c.bytes()).append(' ')
                    .append(HexFormat.of().toHexDigits(c.checksum())).append('\n');
        }
        return sb.toString();
    }

    /** The checksum of a chunk's file, as the manifest holds it. */
    static int checksum(byte[] content) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(content, 0, content.length);
        return (int) crc.getValue();
    }

    private static int parseChecksum(String hex) {
        if (hex.length() != 8) {
            throw new IllegalArgumentException(hex);
        }
        return (int) HexFormat.fromHexDigitsToLong(hex);
    }

    static Manifest read(Path file) throws IOException {
        Map<String, Chunk> map = new LinkedHashMap<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            if (!HEADER.equals(r.readLine())) {
                throw new IOException("not a plan manifest: " + file);
            }
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] f = line.split(" ");
                if (f.length != 4) {
                    throw new IOException("bad manifest line: " + line);
                }
                try {
                    map.put(f[0], new Chunk(f[0], Long.parseLong(f[1]), Long.parseLong(f[2]), parseChecksum(f[3])));
                } catch (IllegalArgumentException e) {
                    throw new IOException("bad manifest line: " + line);
                }
            }
        }
        return new Manifest(map);
    }
}
