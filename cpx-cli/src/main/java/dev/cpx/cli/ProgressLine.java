package dev.cpx.cli;

import dev.cpx.api.CopyJob;
import dev.cpx.api.FileInFlight;
import dev.cpx.api.Progress;
import dev.cpx.api.ShellQuote;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import me.tongfei.progressbar.ProgressBarRenderer;
import me.tongfei.progressbar.ProgressState;
import org.jline.utils.WCWidth;

/**
 * Renders one progress line from a running copy, fitted to the terminal's width:
 * <pre>
 * [#######-------------]  35%  1.0 GiB/2.9 GiB  1234/5678 files  350 MiB/s  ETA 0:05  'big.iso' 45%
 * </pre>
 * Totals grow while the tree is still being walked. The throughput and the estimate use the
 * last few seconds; a file that has been copying for a while is named with how far it is.
 */
final class ProgressLine implements ProgressBarRenderer {

    /** A file in flight this long is named on the line. */
    static final Duration NAMED_AFTER = Duration.ofSeconds(1);
    private static final int BAR_COLUMNS = 20;
    private static final int MIN_BAR_COLUMNS = 10;
    private static final int MIN_NAME_COLUMNS = 10;
    private static final int MAX_NAME_COLUMNS = 40;
    private static final long WINDOW_NANOS = 5_000_000_000L;
    private static final int SAMPLES = 64;

    private final CopyJob job;
    private final long[] times = new long[SAMPLES];
    private final long[] bytes = new long[SAMPLES];
    private final long[] files = new long[SAMPLES];
    private int next;
    private int count;

    /** Renders {@code job}, which started at {@code startNanos} ({@link System#nanoTime()}) with nothing copied. */
    ProgressLine(CopyJob job, long startNanos) {
        this.job = job;
        times[0] = startNanos;
        next = 1;
        count = 1;
    }

    @Override
    public String render(ProgressState state, int width) {
        Progress p = job.progress();
        long now = System.nanoTime();
        sample(now, p);
        int oldest = oldest(now);
        double seconds = (now - times[oldest]) / 1e9;
        double byteRate = seconds > 0 ? (p.bytesDone() - bytes[oldest]) / seconds : 0;
        double fileRate = seconds > 0 ? (p.filesDone() - files[oldest]) / seconds : 0;
        return line(p, byteRate, fileRate, inFlight(), width);
    }

    /** The line for these numbers, exactly {@code width} columns wide. */
    static String line(Progress p, double byteRate, double fileRate, String inFlight, int width) {
        int percent = percent(p);
        String[] fields = {
            String.format(java.util.Locale.ROOT, "%3d%%", percent),
            Units.bytes(p.bytesDone()) + "/" + Units.bytes(p.bytesFound()),
            p.filesDone() + "/" + p.filesFound() + " files",
            Units.rate(byteRate),
            "ETA " + eta(p, byteRate, fileRate),
        };
        int n = fields.length;
        while (n > 0 && joinedLength(fields, n) > width) {
            n--;
        }
        // What is left goes first to the file in flight, then to the bar.
        int room = width - joinedLength(fields, n);
        String name = inFlight != null && room >= MIN_NAME_COLUMNS + 2
                ? fitEnd(inFlight, Math.min(MAX_NAME_COLUMNS, room - 2)) : null;
        if (name != null) {
            room -= columns(name) + 2;
        }
        StringBuilder line = new StringBuilder();
        if (room >= MIN_BAR_COLUMNS + 4) {
            int barColumns = Math.min(BAR_COLUMNS, room - 4);
            int filled = percent * barColumns / 100;
            line.append('[').append("#".repeat(filled)).append("-".repeat(barColumns - filled)).append("]  ");
        }
        for (int i = 0; i < n; i++) {
            line.append(i == 0 ? "" : "  ").append(fields[i]);
        }
        if (name != null) {
            line.append("  ").append(name);
        }
        int used = columns(line);
        return line.append(" ".repeat(Math.max(0, width - used))).toString();
    }

    private static int joinedLength(String[] fields, int n) {
        int length = 0;
        for (int i = 0; i < n; i++) {
            length += fields[i].length() + (i == 0 ? 0 : 2);
        }
        return length;
    }

    /** Percentage of the bytes found (of the files found when there are no bytes). */
    static int percent(Progress p) {
        double fraction = p.bytesFound() > 0 ? (double) p.bytesDone() / p.bytesFound()
                : p.filesFound() > 0 ? (double) p.filesDone() / p.filesFound() : 0;
        return (int) Math.max(0, Math.min(100, Math.floor(fraction * 100)));
    }

    /** Time left at the recent rates: the slower of the bytes' and the files' estimates; {@code --:--} when unknown. */
    static String eta(Progress p, double byteRate, double fileRate) {
        long bytesLeft = Math.max(0, p.bytesFound() - p.bytesDone());
        long filesLeft = Math.max(0, p.filesFound() - p.filesDone());
        double seconds = 0;
        if (bytesLeft > 0) {
            if (byteRate <= 0) {
                return "--:--";
            }
            seconds = bytesLeft / byteRate;
        }
        if (filesLeft > 0) {
            if (fileRate <= 0) {
                return bytesLeft > 0 ? Units.clock((long) Math.ceil(seconds)) : "--:--";
            }
            seconds = Math.max(seconds, filesLeft / fileRate);
        }
        return Units.clock((long) Math.ceil(seconds));
    }

    /** The file in flight for longest, once that is over {@link #NAMED_AFTER}: its name and how far it is. */
    private String inFlight() {
        return job.inFlight().stream()
                .filter(f -> f.elapsed().compareTo(NAMED_AFTER) >= 0)
                .max(Comparator.comparing(FileInFlight::elapsed))
                .map(ProgressLine::describe)
                .orElse(null);
    }

    static String describe(FileInFlight f) {
        Path name = f.source().getFileName();
        String quoted = ShellQuote.quote(name == null ? f.source() : name);
        if (f.size() > 0) {
            return quoted + " " + Math.min(100, f.bytesDone() * 100 / f.size()) + "%";
        }
        return quoted + " " + Units.bytes(f.bytesDone());
    }

    /** {@code text}, or its end after {@code ...} when it is wider than {@code width} columns. */
    static String fitEnd(String text, int width) {
        if (columns(text) <= width) {
            return text;
        }
        int used = 3;
        int start = text.length();
        while (start > 0) {
            int cp = text.codePointBefore(start);
            int w = Math.max(0, WCWidth.wcwidth(cp));
            if (used + w > width) {
                break;
            }
            used += w;
            start -= Character.charCount(cp);
        }
        return "..." + text.substring(start);
    }

    /** Terminal columns {@code text} takes. */
    static int columns(CharSequence text) {
        int columns = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = Character.codePointAt(text, i);
            columns += Math.max(0, WCWidth.wcwidth(cp));
            i += Character.charCount(cp);
        }
        return columns;
    }

    private void sample(long now, Progress p) {
        times[next] = now;
        bytes[next] = p.bytesDone();
        files[next] = p.filesDone();
        next = (next + 1) % SAMPLES;
        count = Math.min(count + 1, SAMPLES);
    }

    /** The oldest sample within the window (the newest when there is only one). */
    private int oldest(long now) {
        int best = (next - 1 + SAMPLES) % SAMPLES;
        for (int i = 2; i <= count; i++) {
            int at = (next - i + SAMPLES) % SAMPLES;
            if (now - times[at] > WINDOW_NANOS) {
                break;
            }
            best = at;
        }
        return best;
    }
}
