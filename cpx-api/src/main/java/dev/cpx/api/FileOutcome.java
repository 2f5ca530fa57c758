package dev.cpx.api;

import java.nio.file.Path;

/**
 * What happened to one source entry: data the scheduler collects instead of stopping.
 *
 * @param kind what the source is
 * @param status copied, skipped or failed
 * @param source the source path
 * @param target the destination path (may be null when it was never computed)
 * @param bytes data bytes written for it
 * @param diagnostic why it was skipped or failed; null when copied
 * @param backup where the replaced destination was backed up ({@code --backup}); null if none
 * @param replaced whether an existing destination was overwritten or replaced (rather than created)
 */
public record FileOutcome(EntryKind kind, Status status, Path source, Path target, long bytes, Diagnostic diagnostic,
        Path backup, boolean replaced) {

    /** Per-entry result. */
    public enum Status {
        COPIED,
        SKIPPED,
        FAILED
    }

    public static FileOutcome copied(EntryKind kind, Path source, Path target, long bytes) {
        return new FileOutcome(kind, Status.COPIED, source, target, bytes, null, null, false);
    }

    public static FileOutcome copied(EntryKind kind, Path source, Path target, long bytes, Path backup, boolean replaced) {
        return new FileOutcome(kind, Status.COPIED, source, target, bytes, null, backup, replaced);
    }

    public static FileOutcome skipped(EntryKind kind, Path source, Path target, Diagnostic why) {
        return new FileOutcome(kind, Status.SKIPPED, source, target, 0, why, null, false);
    }

    public static FileOutcome failed(EntryKind kind, Path source, Path target, Diagnostic why) {
        return new FileOutcome(kind, Status.FAILED, source, target, 0, why, null, false);
    }
}
