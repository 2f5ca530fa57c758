package dev.cpx.core.walk;

import dev.cpx.api.Dereference;
import dev.cpx.api.Diagnostic;
import dev.cpx.api.EntryKind;
import dev.cpx.core.copy.InsertionOrder;
import dev.cpx.core.decide.Entry;
import dev.cpx.core.decide.Placement;
import dev.cpx.core.fs.Stat;
import dev.cpx.core.run.RunContext;
import dev.cpx.core.run.Task;
import dev.cpx.spi.support.PathBytes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The root of a run over a list of entries given with their targets, rather than walked from
 * operands: what a plan's worker copies of a chunk in one run (one pool, one set of parts, no
 * per-operand checks). Each source is looked at once (following links only as the options say)
 * and handed to the same dispatch a directory's walk uses, named as soon as it is complete.
 */
public final class EntryList extends Task {

    /**
     * One entry: its source, its copy's name (in a directory that exists), whether it is a
     * command-line operand itself (looked at through a symbolic link as an operand is), and whether
     * its copy is in a tree made under a staging name ({@link Placement#STAGED_PARENT}).
     */
    public record Item(Path source, Path target, boolean operand, boolean staged) {
    }

    private final RunContext context;
    private final Dispatch dispatch;
    private final List<Item> items;
    private final Runnable end;

    EntryList(RunContext context, Dispatch dispatch, List<Item> items, Runnable end) {
        super(null, context.outcomes());
        this.context = context;
        this.dispatch = dispatch;
        this.items = List.copyOf(items);
        this.end = end;
    }

    @Override
    protected void execute() {
        Dereference deref = context.options().effectiveDereference();
        for (Item item : items) {
            if (context.cancelled()) {
                return;
            }
            boolean follow = deref == Dereference.ALWAYS
                    || (item.operand() && (deref != Dereference.NEVER || PathBytes.hasTrailingSlash(item.source())));
            Stat st;
            try {
                st = Stat.of(item.source(), follow);
            } catch (IOException e) {
                context.outcomes().failed(EntryKind.UNKNOWN, item.source(), item.target(),
                        Diagnostic.of("cannot stat {0}", item.source(), Diagnostic.reasonOf(e)));
                continue;
            }
            Placement placement = item.operand() ? Placement.OPERAND
                    : item.staged() ? Placement.STAGED_PARENT : Placement.EXISTING_PARENT;
            dispatch.entry(this, InsertionOrder.IMMEDIATE, 0, new Entry(item.source(), item.target(), st, placement), null);
        }
    }

    @Override
    protected void completed() {
        end.run();
    }

    @Override
    protected Path subject() {
        return items.isEmpty() ? Path.of(".") : items.get(0).source();
    }
}
