package dev.cpx.contract;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Bytes a file really occupies on disk (holes excluded), read with {@code stat(1)}. */
public final class Blocks {

    private Blocks() {
    }

    /** {@code st_blocks * 512}. Runs {@code stat} in the file's directory on its (ASCII) test name. */
    public static long allocated(Path file) throws IOException {
        Process p = new ProcessBuilder("stat", "-c", "%b %B", file.getFileName().toString())
                .directory(file.toAbsolutePath().getParent().toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("stat failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        String[] parts = out.split(" ");
        return Long.parseLong(parts[0]) * Long.parseLong(parts[1]);
    }
}
