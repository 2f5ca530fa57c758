package dev.cpx.cli;

import picocli.CommandLine.Model.CommandSpec;

/**
 * One copy run by many processes on many nodes (see docs/cluster.md): {@code --plan=DIR} writes a
 * plan instead of copying, {@code --work=DIR} copies chunks of it, {@code --finish=DIR} ends it,
 * {@code --status=DIR} shows how far it got. Options, not subcommands: GNU cp has none of them, so
 * no command line that means something to cp means something else to cpx.
 */
final class ClusterOptions implements Specs.Target {

    /** Default {@code --chunks}: several times the workers of a small cluster. */
    static final int DEFAULT_CHUNKS = 64;

    String plan;
    String work;
    String finish;
    String status;
    int chunks = DEFAULT_CHUNKS;
    int leaseSeconds = (int) dev.cpx.api.CopyPlan.DEFAULT_LEASE.toSeconds();
    boolean chunksGiven;
    boolean leaseGiven;

    CommandSpec spec() {
        CommandSpec s = CommandSpec.wrapWithoutInspection(this);
        s.addOption(Specs.value(this, "DIR", "Copy nothing: walk the SOURCEs and write a plan of the copy into DIR (new or "
                + "empty), for workers on many nodes (--work); see docs/cluster.md.", "--plan"));
        s.addOption(Specs.integer(this, "N", "With --plan: cut the plan into about N chunks (default "
                + DEFAULT_CHUNKS + "); several times the number of workers.", "--chunks"));
        s.addOption(Specs.integer(this, "SECONDS", "With --plan: a worker on another host that has not renewed its claim "
                + "for SECONDS (default " + leaseSeconds + ") is taken as gone, and its chunk is copied again.", "--lease"));
        s.addOption(Specs.value(this, "DIR", "Claim chunks of the plan in DIR and copy them (-j at once) until none is left; "
                + "run any number of these, on any nodes.", "--work"));
        s.addOption(Specs.value(this, "DIR", "End the copy planned in DIR once every chunk is done: directory attributes, "
                + "one summary (--json).", "--finish"));
        s.addOption(Specs.value(this, "DIR", "Show the chunks to do, claimed, done and failed of the plan in DIR, with rate "
                + "and time left.", "--status"));
        return s;
    }

    @Override
    public void set(String key, Object value) {
        switch (key) {
            case "--plan" -> plan = (String) value;
            case "--work" -> work = (String) value;
            case "--finish" -> finish = (String) value;
            case "--status" -> status = (String) value;
            case "--chunks" -> {
                chunks = (Integer) value;
                chunksGiven = true;
            }
            case "--lease" -> {
                leaseSeconds = (Integer) value;
                leaseGiven = true;
            }
            default -> throw new IllegalStateException("no such option: " + key);
        }
    }

    /** Whether any of the steps was asked for. */
    boolean requested() {
        return plan != null || work != null || finish != null || status != null || chunksGiven || leaseGiven;
    }
}
