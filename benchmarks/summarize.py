#!/usr/bin/env python3
"""Benchmark results: one run's report, and the ratio table of every run.

    summarize.py RESULT.json...            markdown table: cp -r time / copier time, per run
    summarize.py --merge HYPERFINE.json ... --out STEM    (used by lib.sh) writes STEM.json and STEM.md
    summarize.py --jmh JMH.json --out STEM ...             (used by jmh.sh) writes STEM.md

A ratio above 1 means faster than `cp -r` measured in the same hyperfine run; the +- is one
standard deviation propagated from both means.
"""

import argparse
import json
import math
import sys

REFERENCE = "cp -r"


def ratios(results, reference=REFERENCE, stat="mean"):
    """{name: (ratio, sd)} of reference time / result time (means, or medians with sd 0); empty without the reference."""
    ref = next((r for r in results if r["command"] == reference), None)
    if ref is None:
        return {}
    out = {}
    for r in results:
        q = ref[stat] / r[stat]
        rel = 0.0
        if stat == "mean":
            rel = math.sqrt(((ref.get("stddev") or 0) / ref["mean"]) ** 2 + ((r.get("stddev") or 0) / r["mean"]) ** 2)
        out[r["command"]] = (q, q * rel)
    return out


def seconds(x):
    return "%.3f" % x if x < 10 else "%.2f" % x


def merge(a):
    hf = json.load(open(a.merge))
    results = hf["results"]
    rs = ratios(results, a.reference)
    for r in results:
        if r["command"] in rs:
            r["ratio_vs_" + a.reference.replace(" ", "_")] = round(rs[r["command"]][0], 4)
    commands = [{"name": n, "command": c} for n, c in (a.command or [])]
    doc = {
        "title": a.title,
        "mode": a.mode,
        "source": a.source,
        "destination": a.destination,
        "dataset": dict(kv.split("=", 1) for kv in a.info.split()) if a.info else {},
        "prepare": a.prepare,
        "commands": commands,
        "hyperfine_command": a.hyperfine,
        "machine": json.loads(a.machine),
        "load_average_after": a.load_after.split(),
        "reference": a.reference,
        "results": results,
    }
    with open(a.out + ".json", "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    with open(a.out + ".md", "w") as f:
        f.write(report(doc))


def report(doc):
    m = doc["machine"]
    rs = ratios(doc["results"], doc["reference"])
    lines = ["# " + doc["title"], ""]
    if m.get("note"):
        lines += ["**Note:** " + m["note"], ""]
    d = doc["dataset"]
    lines += [
        "- mode: **%s**; source `%s` (%s files, %s dirs, %s bytes); destination `%s`"
        % (doc["mode"], doc["source"], d.get("files", "?"), d.get("dirs", "?"), d.get("bytes", "?"), doc["destination"]),
        "- before every run: `%s`" % doc["prepare"],
        "",
        "| copier | mean ± σ [s] | median [s] | min [s] | max [s] | user [s] | system [s] | %s / copier (means) | (medians) |" % doc["reference"],
        "|---|---|---|---|---|---|---|---|---|",
    ]
    medians = ratios(doc["results"], doc["reference"], "median")
    for r in doc["results"]:
        q = rs.get(r["command"])
        qm = medians.get(r["command"])
        lines.append("| %s | %s ± %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["command"], seconds(r["mean"]), seconds(r.get("stddev") or 0), seconds(r["median"]), seconds(r["min"]),
            seconds(r["max"]), seconds(r["user"]), seconds(r["system"]), "**%.2f×** ± %.2f" % q if q else "–",
            "%.2f×" % qm[0] if qm else "–"))
    lines += ["", "Commands:", ""]
    for c in doc["commands"]:
        lines.append("- %s: `%s`" % (c["name"], c["command"]))
    lines += ["", "hyperfine:", "", "```", doc["hyperfine_command"], "```", "", "Machine:", ""]
    for k in ["cores", "cpu", "memory", "memory_available", "kernel", "source_fs", "destination_fs", "cp", "rsync",
              "hyperfine", "git_commit", "cpx_java_opts"]:
        lines.append("- %s: `%s`" % (k, m.get(k, "")))
    lines.append("- load average before: `%s`, after: `%s`" % (" ".join(m.get("load_average", [])),
                                                              " ".join(doc.get("load_average_after", []))))
    lines += ["- java:", "", "```", m.get("java", ""), "```", "- cpx --version:", "", "```", m.get("cpx", ""), "```", ""]
    return "\n".join(lines)


def table(files, reference, stat="mean"):
    docs, kept = [], []
    for f in files:
        d = json.load(open(f))
        if isinstance(d, dict) and "title" in d and "results" in d:
            docs.append(d)
            kept.append(f)
        else:
            print("summarize.py: skipped %s (not a bench.sh/jobs.sh result)" % f, file=sys.stderr)
    files = kept
    names = []
    for d in docs:
        for r in d["results"]:
            if r["command"] not in names and r["command"] != reference:
                names.append(r["command"])
    out = ["| run | %s %s [s] | %s |" % (reference, stat, " | ".join(names)),
           "|---|---|%s|" % "|".join("---" for _ in names)]
    for f, d in zip(files, docs):
        rs = ratios(d["results"], reference, stat)
        ref = next((r for r in d["results"] if r["command"] == reference), None)
        fmt = "%.2f× ± %.2f" if stat == "mean" else "%.2f×"
        cells = [(fmt % rs[n] if stat == "mean" else fmt % rs[n][0]) if n in rs else "" for n in names]
        out.append("| %s | %s | %s |" % (d["title"], seconds(ref[stat]) if ref else "–", " | ".join(cells)))
    out += ["", "Ratio = `%s` %s time / copier %s time in the same hyperfine run (> 1: faster than %s)."
            % (reference, stat, stat, reference)]
    return "\n".join(out) + "\n"


# Which parameter a JMH benchmark's table compares side by side, and its reference value first.
JMH_COMPARE = [("engine", "native"), ("buffer", "1048576")]  # 1048576: CopyBuffers.SIZE


def jmh(a):
    runs = json.load(open(a.jmh))
    machine = json.loads(a.machine)
    out = ["# " + a.title, ""]
    if machine.get("note"):
        out += ["**Note:** " + machine["note"], ""]
    out += ["Command: `%s`" % a.hyperfine, "",
            "Time per operation (lower is better), ± the 99.9% confidence half-width JMH reports; "
            "the ratio columns divide each time by the reference column's (> 1: the reference is faster).", ""]
    by_bench = {}
    for r in runs:
        by_bench.setdefault(r["benchmark"], []).append(r)
    for bench, rs in by_bench.items():
        params = list(rs[0].get("params", {}).keys())
        compare, ref = next(((p, v) for p, v in JMH_COMPARE if p in params), (None, None))
        values = []
        for r in rs:
            v = r["params"].get(compare) if compare else ""
            if v not in values:
                values.append(v)
        if ref in values:
            values.remove(ref)
            values.insert(0, ref)
        rows = {}
        for r in rs:
            key = tuple((p, r["params"][p]) for p in params if p != compare)
            rows.setdefault(key, {})[r["params"].get(compare) if compare else ""] = r["primaryMetric"]
        unit = rs[0]["primaryMetric"]["scoreUnit"]
        rest = [p for p in params if p != compare]
        out += ["## " + bench.rsplit(".", 2)[-2] + " (" + rs[0]["mode"] + ", " + unit + ")", ""]
        head = rest + [("%s=%s" % (compare, v)) if compare else "score" for v in values]
        head += ["%s / %s" % (v, values[0]) for v in values[1:]]
        out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for key, cells in rows.items():
            line = [human(v) if p in ("size",) else v for p, v in key]
            for v in values:
                m = cells.get(v)
                line.append("%s ± %s" % (num(m["score"]), num(m["scoreError"])) if m else "")
            for v in values[1:]:
                m, r0 = cells.get(v), cells.get(values[0])
                line.append("%.2f" % (m["score"] / r0["score"]) if m and r0 else "")
            out.append("| " + " | ".join(line) + " |")
        out.append("")
    out += machine_lines(machine)
    with open(a.out + ".md", "w") as f:
        f.write("\n".join(out) + "\n")


def num(x):
    x = float(x)
    if x != x:  # NaN: a single measurement has no error
        return "–"
    return "%.0f" % x if abs(x) >= 100 else "%.3g" % x


def human(size):
    n = int(size)
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return "%d %s" % (n >> shift, unit)
    return str(n)


def machine_lines(m):
    out = ["Machine:", ""]
    for k in ["cores", "cpu", "memory", "kernel", "source_fs", "git_commit", "load_average"]:
        out.append("- %s: `%s`" % (k, m.get(k, "")))
    out += ["- java:", "", "```", m.get("java", ""), "```"]
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="*")
    p.add_argument("--reference", default=REFERENCE)
    p.add_argument("--median", action="store_true", help="ratios of medians (robust to a few disturbed runs) instead of means")
    p.add_argument("--merge")
    p.add_argument("--report", nargs="+", metavar="RESULT.json", help="rewrite the .md of merged results")
    p.add_argument("--jmh", help="a JMH JSON result file: writes OUT.md with one table per benchmark")
    p.add_argument("--out")
    p.add_argument("--title", default="")
    p.add_argument("--mode", default="")
    p.add_argument("--source", default="")
    p.add_argument("--destination", default="")
    p.add_argument("--machine", default="{}")
    p.add_argument("--load-after", default="")
    p.add_argument("--info", default="")
    p.add_argument("--prepare", default="")
    p.add_argument("--hyperfine", default="")
    p.add_argument("--command", nargs=2, action="append", metavar=("NAME", "CMD"))
    a = p.parse_args()
    if a.merge:
        merge(a)
    elif a.report:
        for f in a.report:
            with open(f[:-len(".json")] + ".md", "w") as out:
                out.write(report(json.load(open(f))))
    elif a.jmh:
        jmh(a)
    elif a.files:
        sys.stdout.write(table(a.files, a.reference, "median" if a.median else "mean"))
    else:
        p.error("no result files")


if __name__ == "__main__":
    main()
