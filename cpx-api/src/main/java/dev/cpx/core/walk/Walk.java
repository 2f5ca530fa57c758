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
        Root root = new Root(context.outcomes(), sources, destination,
                task -> new Operands(context, dispatch, destinations, justCreated, resumeMarker, task), end);
        return new CopyRun.Root(root, transfers::snapshot);
    }
}
