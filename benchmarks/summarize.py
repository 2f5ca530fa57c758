#!/usr/bin/env python3
"""Benchmark results: one run's report, and the ratio table for the README.

    summarize.py RESULT.json...            markdown table: cp -r time / copier time, per run
    summarize.py --merge HYPERFINE.json ... --out STEM    (used by lib.sh) writes STEM.json and STEM.md

A ratio above 1 means faster than `cp -r` measured in the same hyperfine run; the +- is one
standard deviation propagated from both means.
"""

import argparse
import json
import math
import sys

REFERENCE = "cp -r"


def ratios(results, reference=REFERENCE):
    """{name: (ratio, sd)} of reference mean / result mean; empty without the reference."""
    ref = next((r for r in results if r["command"] == reference), None)
    if ref is None:
        return {}
    out = {}
    for r in results:
        q = ref["mean"] / r["mean"]
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
        "| copier | mean ± σ [s] | min [s] | max [s] | user [s] | system [s] | %s time / copier time |" % doc["reference"],
        "|---|---|---|---|---|---|---|",
    ]
    for r in doc["results"]:
        q = rs.get(r["command"])
        lines.append("| %s | %s ± %s | %s | %s | %s | %s | %s |" % (
            r["command"], seconds(r["mean"]), seconds(r.get("stddev") or 0), seconds(r["min"]), seconds(r["max"]),
            seconds(r["user"]), seconds(r["system"]), "%.2f× ± %.2f" % q if q else "–"))
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


def table(files, reference):
    docs = [json.load(open(f)) for f in files]
    names = []
    for d in docs:
        for r in d["results"]:
            if r["command"] not in names and r["command"] != reference:
                names.append(r["command"])
    out = ["| run | %s time [s] | %s |" % (reference, " | ".join(names)),
           "|---|---|%s|" % "|".join("---" for _ in names)]
    for f, d in zip(files, docs):
        rs = ratios(d["results"], reference)
        ref = next((r for r in d["results"] if r["command"] == reference), None)
        cells = ["%.2f× ± %.2f" % rs[n] if n in rs else "" for n in names]
        out.append("| %s | %s | %s |" % (d["title"], seconds(ref["mean"]) if ref else "–", " | ".join(cells)))
    out += ["", "Ratio = `%s` mean time / copier mean time in the same hyperfine run (> 1: faster than %s)." % (reference, reference)]
    return "\n".join(out) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="*")
    p.add_argument("--reference", default=REFERENCE)
    p.add_argument("--merge")
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
    elif a.files:
        sys.stdout.write(table(a.files, a.reference))
    else:
        p.error("no result files")


if __name__ == "__main__":
    main()
