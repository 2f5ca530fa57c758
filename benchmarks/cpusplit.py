#!/usr/bin/env python3
"""Whose kernel time is it? Runs commands in turn and reports, for each run, the
command's own CPU time (rusage, as `time` and hyperfine report it) beside the whole machine's CPU
time by category from /proc/stat over the same interval: user, system (kernel work in a process's
context), softirq and irq (interrupt work), iowait.

Why: with tick-based accounting and no CONFIG_IRQ_TIME_ACCOUNTING (Debian's kernels, these
machines), interrupt work is charged as system time to whatever task is running when it comes. A
serial copier sleeps while the disk answers, so the disk's completions (softirq: ending the block
requests, unlocking the pages, waking the reader) land on the idle CPU and on nobody's bill; a
parallel one keeps the CPUs busy and is billed for them. rusage's system time then compares
unequal things; /proc/stat's "system" column, taken on a quiet machine, is the kernel work done in
the processes' context whoever runs it.

    cpusplit.py [--runs N] [--cold DST] NAME=CMD NAME=CMD...

Commands run in turn as in ab.py (A B, B A, ...).

--cold DST: before every run, move DST aside (DST's parent/.trash/, not deleted: on an ext4 without a
journal, deleting just before copying slows every copier; see README), sync, drop the page cache
(root). The moved copies are deleted at the end. Commands run through /bin/sh.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

import ab

CATEGORIES = ("user", "nice", "system", "idle", "iowait", "irq", "softirq")


def proc_stat():
    with open("/proc/stat") as f:
        fields = f.readline().split()[1:1 + len(CATEGORIES)]
    return dict(zip(CATEGORIES, (int(x) for x in fields)))


def trash(dst):
    """Where --cold moves the copies of dst aside: .trash beside it."""
    return os.path.join(os.path.dirname(os.path.abspath(dst)), ".trash")


def cold(dst):
    if os.path.lexists(dst):
        os.makedirs(trash(dst), exist_ok=True)
        os.rename(dst, os.path.join(trash(dst), str(time.time_ns())))
    subprocess.run(["sync"], check=True)
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def run(cmd):
    hz = os.sysconf("SC_CLK_TCK")
    before, ru = proc_stat(), resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after, ru2 = proc_stat(), resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"cpusplit.py: exit status {done.returncode}: {cmd}")
    row = {k: (after[k] - before[k]) / hz for k in CATEGORIES}
    row["user"] += row.pop("nice")
    row.update(wall=wall, own_user=ru2.ru_utime - ru.ru_utime, own_system=ru2.ru_stime - ru.ru_stime)
    return row


COLUMNS = ("wall", "own_user", "own_system", "user", "system", "softirq", "irq", "iowait")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--cold", metavar="DST")
    p.add_argument("commands", nargs="+", metavar="NAME=CMD")
    a = p.parse_args()
    named = ab.named_commands(a.commands, "cpusplit.py")
    rows = {name: [] for name, _ in named}
    print(f"{'':20s}" + "".join(f"{c:>11s}" for c in COLUMNS) + "   (seconds; own_* = the command's rusage, the rest /proc/stat)")
    try:
        for i in range(a.runs):
            for name, cmd in ab.in_turn(named, i):
                if a.cold:
                    cold(a.cold)
                r = run(cmd)
                rows[name].append(r)
                print(f"{name + ' #' + str(i + 1):20s}" + "".join(f"{r[c]:11.2f}" for c in COLUMNS), flush=True)
    finally:
        if a.cold:
            subprocess.run(["rm", "-rf", a.cold, trash(a.cold)])
    print("medians")
    for name, cmd in named:
        print(f"{name:20s}" + "".join(f"{statistics.median(r[c] for r in rows[name]):11.2f}" for c in COLUMNS) + f"    {cmd}")


if __name__ == "__main__":
    main()
