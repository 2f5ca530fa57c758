package dev.cpx.example.library;

import dev.cpx.api.Attribute;
import dev.cpx.api.CopyJob;
import dev.cpx.api.CopyListener;
import dev.cpx.api.CopyOptions;
import dev.cpx.api.CopySummary;
import dev.cpx.api.Cpx;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.FileOutcome;
import dev.cpx.api.Progress;
import dev.cpx.spi.support.PathBytes;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Copies a directory tree with cpx as a library, as {@code cp -r --preserve=mode,timestamps} would,
 * printing failures as they happen and the totals at the end.
 *
 * <pre>
 * java -jar cpx-library-example.jar SOURCE DEST
 * </pre>
 */
public final class CopyTree {

    private CopyTree() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: CopyTree SOURCE DEST");
            System.exit(2);
        }
        // Command-line arguments are file names: PathBytes keeps names that are not valid UTF-8 intact.
        CopySummary summary = copy(PathBytes.path(args[0]), PathBytes.path(args[1]), System.out, System.err);
        System.exit(summary.succeeded() ? 0 : 1);
    }

    /** Copies {@code source} to {@code target} (created as the copy, or entered if it is a directory). */
    static CopySummary copy(Path source, Path target, PrintStream out, PrintStream err) throws Exception {
        CopyOptions options = CopyOptions.builder()
                .recursive(true)
                .preserve(Attribute.MODE, Attribute.TIMESTAMPS)
                .build();

        // Called from the worker threads: whatever it shares must be thread safe (PrintStream is).
        CopyListener listener = new CopyListener() {
            @Override
            public void entryDone(FileOutcome outcome) {
                if (outcome.status() == FileOutcome.Status.FAILED) {
                    err.println("copy-tree: " + outcome.diagnostic());
                }
            }

            @Override
            public void warning(Diagnostic warning) {
                err.println("copy-tree: warning: " + warning);
            }

            // Only failures are printed: the files copied without trouble need not be told one by one.
            @Override
            public boolean hearsEveryCopy() {
                return false;
            }
        };

        // Cpx.create() uses the engines on the class path; --engine=auto picks the best available one.
        Cpx cpx = Cpx.create();
        CopyJob job = cpx.start(List.of(source), target, options, listener);
        // The job runs in the background: watch it (or cancel it) while it runs.
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "progress");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(() -> {
            Progress p = job.progress();
            out.printf("%d/%d files, %d MiB%n", p.filesDone(), p.filesFound(), p.bytesDone() >> 20);
        }, 1, 1, TimeUnit.SECONDS);
        CopySummary s;
        try {
            s = job.await();
        } finally {
            ticker.shutdownNow();
        }
        out.printf("%d files, %d directories, %d links, %d bytes in %d ms%s%n", s.files(), s.directories(), s.symlinks(),
                s.bytes(), s.elapsed().toMillis(), s.failed() == 0 ? "" : "; " + s.failed() + " failed");
        return s;
    }
}
