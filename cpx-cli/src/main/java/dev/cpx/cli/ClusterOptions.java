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
    /** {@code --split-size} as given; null: the default. */
    String splitSize;
    boolean chunksGiven;
    boolean leaseGiven;

    /** Adds these options to the command's model {@code s}, in code (see {@link Specs}). */
    void addTo(CommandSpec s) {
        s.addOption(Specs.value(this, "DIR", "Copy nothing: walk the SOURCEs and write a plan of the copy into DIR (new or "
                + "empty), for workers on many nodes (--work); see docs/cluster.md.", "--plan"));
        s.addOption(Specs.integer(this, "N", "With --plan: cut the plan into about N chunks (default "
                + DEFAULT_CHUNKS + "); several times the number of workers.", "--chunks"));
        s.addOption(Specs.integer(this, "SECONDS", "With --plan: a worker on another host that has not renewed its claim "
                + "for SECONDS (default " + leaseSeconds + ") is taken as gone, and its chunk is copied again.", "--lease"));
        s.addOption(Specs.value(this, "SIZE", "With --plan: split regular files larger than SIZE (bytes, or with K, M, G, T; "
                + "default 1G; 0: none) into ranges that different workers copy.", "--split-size"));
        s.addOption(Specs.value(this, "DIR", "Claim chunks of the plan in DIR and copy them (-j at once) until none is left; "
                + "run any number of these, on any nodes.", "--work"));
        s.addOption(Specs.value(this, "DIR", "End the copy planned in DIR once every chunk is done: directory attributes, "
                + "one summary (--json).", "--finish"));
        s.addOption(Specs.value(this, "DIR", "Show the chunks to do, claimed, done and failed of the plan in DIR, with rate "
                + "and time left.", "--status"));
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
            case "--split-size" -> splitSize = (String) value;
            case "--lease" -> {
                leaseSeconds = (Integer) value;
                leaseGiven = true;
            }
            default -> throw new IllegalStateException("no such option: " + key);
        }
    }

    /**
     * {@code --split-size}'s bytes: a number, optionally followed by K, M, G or T (powers of 1024);
     * -1 when it is none of these.
     */
    long splitBytes() {
        if (splitSize == null) {
            return dev.cpx.api.CopyPlan.DEFAULT_SPLIT_SIZE;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]{1,15})([KMGT]?)(i?B)?").matcher(splitSize);
        if (!m.matches()) {
            return -1;
        }
        int shift = m.group(2).isEmpty() ? 0 : 10 * ("KMGT".indexOf(m.group(2)) + 1);
        long n = Long.parseLong(m.group(1));
        return n > (Long.MAX_VALUE >> shift) ? -1 : n << shift;
    }

    /** Whether any of the steps was asked for. */
    boolean requested() {
        return plan != null || work != null || finish != null || status != null || chunksGiven || leaseGiven || splitSize != null;
    }
}
