package dev.cpx.core.walk;

import dev.cpx.core.copy.Destinations;
import dev.cpx.core.copy.Directories;
import dev.cpx.core.copy.FileCopier;
import dev.cpx.core.copy.NonFiles;
import dev.cpx.core.copy.Transfers;
import dev.cpx.core.decide.JustCreated;
import dev.cpx.core.finish.Metadata;
import dev.cpx.core.finish.ResumeMarker;
import dev.cpx.core.finish.Xattrs;
import dev.cpx.core.run.CopyRun;
import dev.cpx.core.run.RunContext;
import java.nio.file.Path;
import java.util.List;

/** Puts one run's parts together, each given what it needs, and makes the root task of the walk. */
public final class Walk {

    private Walk() {
    }

    /** The root task copying {@code sources} to {@code destination}, calling {@code end} when all is done. */
    public static CopyRun.Root root(RunContext context, List<Path> sources, Path destination, Runnable end) {
        Parts p = parts(context);
        Root root = new Root(context.outcomes(), sources, destination,
                task -> new Operands(context, p.dispatch(), p.destinations(), p.justCreated(), p.resumeMarker(), task), end);
        return new CopyRun.Root(root, p.transfers()::snapshot);
    }

    /**
     * The root task copying each of {@code entries} (non-directories, each to the target given with
     * it, in a directory that exists) as one run, calling {@code end} when all is done; see
     * {@link EntryList}.
     */
    public static CopyRun.Root entries(RunContext context, List<EntryList.Item> entries, Runnable end) {
        Parts p = parts(context);
        return new CopyRun.Root(new EntryList(context, p.dispatch(), entries, end), p.transfers()::snapshot);
    }

    /** The parts of one run, each given what it needs. */
    private record Parts(Dispatch dispatch, Destinations destinations, JustCreated justCreated, ResumeMarker resumeMarker,
            Transfers transfers) {
    }

    private static Parts parts(RunContext context) {
        Excludes excludes = Excludes.of(context.options().excludes());
        Xattrs xattrs = new Xattrs(context.options(), context.extras(), context.effects(), context.outcomes(), context.anchors());
        Metadata metadata = new Metadata(context.options(), context.effects(), context.outcomes(), xattrs);
        JustCreated justCreated = new JustCreated();
        Destinations destinations = new Destinations(context, justCreated);
        ResumeMarker resumeMarker = new ResumeMarker(context.extras(), context.effects());
        Transfers transfers = new Transfers();
        FileCopier files = new FileCopier(context, destinations, metadata, transfers);
        NonFiles nonFiles = new NonFiles(context, destinations, metadata);
        Directories directories = new Directories(context, destinations, metadata, resumeMarker);
        Dispatch dispatch = new Dispatch(context, files, nonFiles, directories, excludes);
        return new Parts(dispatch, destinations, justCreated, resumeMarker, transfers);
    }
}
