#!/usr/bin/env python3
"""Interleaved A/B timing: runs the commands in turn (A B, B A, A B ...), so that the drift of a shared,
noisy machine (10% over minutes here) falls on every command alike, and reports each command's
mean and median wall time and the paired difference to the first one (mean of the per-round
differences, with its standard error); the same for CPU time (user + system, of the command and
everything it waited for), which on two CPUs shows a change in work that wall time hides. For small effects that one hyperfine run per command
cannot separate from the drift; hyperfine stays the tool for the published tables.

    ab.py [--runs N] [--warmup N] [--prepare CMD] NAME=CMD NAME=CMD...

Commands run through /bin/sh; --prepare runs before every command (e.g. removing a copy).
"""

import argparse
import resource
import statistics
import subprocess
import sys
import time


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd):
    """Wall time and CPU time (user + system) of one run of cmd."""
    start, start_cpu = time.perf_counter(), cpu()
    done = subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed, used = time.perf_counter() - start, cpu() - start_cpu
    if done.returncode != 0:
        sys.exit(f"ab.py: exit status {done.returncode}: {cmd}")
    return elapsed, used


def report(title, named, times):
    first = named[0][0]
    print(title)
    for name, cmd in named:
        t = times[name]
        line = f"  {name:20s} mean {1000 * statistics.mean(t):8.1f}  median {1000 * statistics.median(t):8.1f}"
        if name != first:
            d = [x - y for x, y in zip(t, times[first])]
            se = statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else 0.0
            line += f"  vs {first}: {1000 * statistics.mean(d):+7.1f} ± {1000 * se:.1f} (paired, ± 1 s.e.)"
        print(line + f"    {cmd}")


def named_commands(commands, program):
    """NAME=CMD arguments as [name, command] pairs; exits with a message naming program otherwise."""
    named = [c.split("=", 1) for c in commands]
    if any(len(n) != 2 for n in named):
        sys.exit(f"{program}: each command is NAME=CMD")
    return named


def in_turn(named, i):
    """Round i's order: A B, then B A, so a command's place in the round (what ran just before it)
    falls on each alike."""
    return named if i % 2 == 0 else named[::-1]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--prepare", default=None)
    p.add_argument("commands", nargs="+", metavar="NAME=CMD")
    a = p.parse_args()
    named = named_commands(a.commands, "ab.py")
    times = {name: [] for name, _ in named}
    cpus = {name: [] for name, _ in named}
    for i in range(a.warmup + a.runs):
        for name, cmd in in_turn(named, i):
            if a.prepare:
                subprocess.run(a.prepare, shell=True, check=True)
            t, c = run(cmd)
            if i >= a.warmup:
                times[name].append(t)
                cpus[name].append(c)
    report(f"{a.runs} interleaved rounds ({a.warmup} warm-up), wall time in ms:", named, times)
    report("CPU time (user + system) in ms:", named, cpus)


if __name__ == "__main__":
    main()
