#!/usr/bin/env python3
"""Counts that are not times: system calls per copied file (strace -c -f) and peak memory
(/usr/bin/time -v). Used by syscalls.sh and rss.sh, which pass the paths and commands.

    measure.py syscalls --out STEM --title T --files N --baseline CMD --copier NAME CMD [--copier NAME CMD]...
    measure.py rss --out STEM --title T --copier NAME CMD [--copier NAME CMD]... --dataset NAME SRC DST FILES [...]

Commands contain {src} and {dst}; the destination is removed before each command.
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile


def run_clean(dst):
    shutil.rmtree(dst, ignore_errors=True)
    subprocess.run(["sync"], check=True)


def strace_counts(cmd):
    """{syscall: (calls, errors)} from `strace -c -f` of cmd (a shell command)."""
    with tempfile.NamedTemporaryFile(suffix=".strace", delete=False) as t:
        out = t.name
    try:
        p = subprocess.run(["strace", "-c", "-f", "-o", out, "sh", "-c", "exec " + cmd],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            sys.exit("measure.py: failed (%d): %s\n%s" % (p.returncode, cmd, p.stderr[-2000:]))
        counts = {}
        for line in open(out):
            f = line.split()
            # % time, seconds, usecs/call, calls, [errors], syscall
            if len(f) >= 5 and re.match(r"^[\d.]+$", f[0]) and f[-1] != "total":
                calls = int(f[3])
                errors = int(f[4]) if len(f) == 6 else 0
                counts[f[-1]] = (calls, errors)
        return counts
    finally:
        os.unlink(out)


def syscalls(a):
    files = int(a.files)
    run_clean(a.dst)
    base_dir = tempfile.mkdtemp(prefix="cpx-empty-", dir=os.path.dirname(a.dst))
    empty_src, empty_dst = os.path.join(base_dir, "src"), os.path.join(base_dir, "dst")
    os.mkdir(empty_src)
    rows = []
    doc = {"title": a.title, "source": a.src, "files": files, "note": a.note, "copiers": []}
    for name, template in a.copier:
        # Warm the cache and the launcher once, then count; the baseline is the same command on an empty directory.
        cmd = template.format(src=a.src, dst=a.dst)
        subprocess.run(["sh", "-c", cmd], check=True, stdout=subprocess.DEVNULL)
        run_clean(a.dst)
        counts = strace_counts(cmd)
        run_clean(a.dst)
        shutil.rmtree(empty_dst, ignore_errors=True)
        base = strace_counts(template.format(src=empty_src, dst=empty_dst))
        shutil.rmtree(empty_dst, ignore_errors=True)
        total = sum(c for c, _ in counts.values())
        base_total = sum(c for c, _ in base.values())
        per_call = {}
        for s, (c, e) in counts.items():
            b = base.get(s, (0, 0))[0]
            per_call[s] = {"calls": c, "errors": e, "empty_dir_calls": b, "per_file": round((c - b) / files, 3)}
        doc["copiers"].append({"name": name, "command": cmd, "total_calls": total, "empty_dir_calls": base_total,
                               "per_file": round((total - base_total) / files, 3), "syscalls": per_call})
        rows.append(name)
    shutil.rmtree(base_dir, ignore_errors=True)
    with open(a.out + ".json", "w") as f:
        json.dump(doc, f, indent=2)
    md = ["# " + a.title, ""]
    if a.note:
        md += ["**Note:** " + a.note, ""]
    md += ["Source `%s`, %d files. `strace -c -f` counts every thread's calls (a count, not a time: strace "
           "slows the copy). *Per file* = (calls on the tree − calls of the same command on an empty directory) "
           "/ files, so process and JVM start-up are left out." % (a.src, files), "",
           "| copier | calls on the tree | calls on an empty dir | per file |", "|---|---|---|---|"]
    for c in doc["copiers"]:
        md.append("| %s | %d | %d | **%.2f** |" % (c["name"], c["total_calls"], c["empty_dir_calls"], c["per_file"]))
    names = sorted({s for c in doc["copiers"] for s in c["syscalls"]},
                   key=lambda s: -max(c["syscalls"].get(s, {"per_file": 0})["per_file"] for c in doc["copiers"]))
    md += ["", "Per file, by system call (errors in parentheses; rows under 0.01 per file for every copier left out):", "",
           "| syscall | " + " | ".join(c["name"] for c in doc["copiers"]) + " |",
           "|---|" + "---|" * len(doc["copiers"])]
    for s in names:
        cells = []
        for c in doc["copiers"]:
            v = c["syscalls"].get(s)
            if v is None:
                cells.append("")
            else:
                err = (v["errors"] - 0) / files
                cells.append("%.2f%s" % (v["per_file"], " (%.2f)" % err if v["errors"] and err >= 0.01 else ""))
        if any(abs(c["syscalls"].get(s, {"per_file": 0})["per_file"]) >= 0.01 for c in doc["copiers"]):
            md.append("| %s | %s |" % (s, " | ".join(cells)))
    md += ["", "Commands:", ""] + ["- %s: `%s`" % (c["name"], c["command"]) for c in doc["copiers"]]
    md += machine_md(a.machine)
    open(a.out + ".md", "w").write("\n".join(md) + "\n")


TIME_FIELDS = {
    "Maximum resident set size (kbytes)": "max_rss_kb",
    "Elapsed (wall clock) time (h:mm:ss or m:ss)": "elapsed",
    "User time (seconds)": "user_s",
    "System time (seconds)": "system_s",
    "Voluntary context switches": "voluntary_cs",
    "Involuntary context switches": "involuntary_cs",
    "Exit status": "exit_status",
}


def time_v(cmd):
    p = subprocess.run(["/usr/bin/time", "-v", "sh", "-c", "exec " + cmd], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    out = {}
    for line in p.stderr.splitlines():
        k, _, v = line.strip().rpartition(": ")
        if k in TIME_FIELDS:
            out[TIME_FIELDS[k]] = v
    if p.returncode != 0:
        sys.exit("measure.py: failed (%d): %s\n%s" % (p.returncode, cmd, p.stderr[-2000:]))
    return out


def warm(src):
    """Reads every file of src once, so no copier pays for the first read from disk."""
    subprocess.run("find %s -type f -print0 | xargs -0 -r cat > /dev/null" % shlex.quote(src), shell=True, check=True)


def rss(a):
    doc = {"title": a.title, "note": a.note, "runs": []}
    for ds, src, dst, files in a.dataset:
        warm(src)
        for name, template in a.copier:
            cmd = template.format(src=src, dst=dst)
            run_clean(dst)
            r = time_v(cmd)
            run_clean(dst)
            doc["runs"].append(dict(dataset=ds, files=int(files), copier=name, command=cmd, **r))
    with open(a.out + ".json", "w") as f:
        json.dump(doc, f, indent=2)
    md = ["# " + a.title, ""]
    if a.note:
        md += ["**Note:** " + a.note, ""]
    md += ["Peak resident memory from `/usr/bin/time -v` (\"Maximum resident set size\"), one run each after the "
           "source was read once (warm cache). Elapsed times are from single runs: see bench.sh for times.", "",
           "| dataset | files | copier | peak RSS [MB] | elapsed | user [s] | system [s] |", "|---|---|---|---|---|---|---|"]
    for r in doc["runs"]:
        md.append("| %s | %d | %s | **%.0f** | %s | %s | %s |" % (r["dataset"], r["files"], r["copier"],
                                                                 int(r["max_rss_kb"]) / 1024, r["elapsed"], r["user_s"], r["system_s"]))
    md += ["", "Commands:", ""] + ["- `%s`" % r["command"] for r in doc["runs"]]
    md += machine_md(a.machine)
    open(a.out + ".md", "w").write("\n".join(md) + "\n")


def machine_md(machine_json):
    m = json.loads(machine_json)
    out = ["", "Machine:", ""]
    for k in ["cores", "cpu", "memory", "kernel", "source_fs", "cp", "git_commit", "cpx_java_opts", "load_average"]:
        out.append("- %s: `%s`" % (k, m.get(k, "")))
    out += ["- java:", "", "```", m.get("java", ""), "```", "- cpx --version:", "", "```", m.get("cpx", ""), "```"]
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["syscalls", "rss"])
    p.add_argument("--out", required=True)
    p.add_argument("--title", default="")
    p.add_argument("--note", default=os.environ.get("CPX_BENCH_NOTE", ""))
    p.add_argument("--machine", default="{}")
    p.add_argument("--copier", nargs=2, action="append", metavar=("NAME", "CMD"), required=True)
    p.add_argument("--src")
    p.add_argument("--dst")
    p.add_argument("--files")
    p.add_argument("--dataset", nargs=4, action="append", metavar=("NAME", "SRC", "DST", "FILES"))
    a = p.parse_args()
    if a.what == "syscalls":
        syscalls(a)
    else:
        rss(a)


if __name__ == "__main__":
    main()
