#!/usr/bin/python3
"""README's benchmark table and chart, made from committed result files.

    /usr/bin/python3 benchmarks/chart.py [--copiers 'cpx -r,rsync -a,LABEL=COMMAND'] [--peers PEERS.csv]
        [--out IMAGE.png] [--table] [--title TITLE] RESULT.json...

Each RESULT.json is a `bench.sh` run (`results/*-copiers-MODE-FS-DATASET.json`); its MODE-FS-DATASET
is its row, so several files may give one row: each copier's ratio comes from the latest file (by
name) that has it, with the `cp -r` of that same run, never from two runs. A copier is named as in
the result files (hyperfine's command name); `LABEL=COMMAND` shows the copier named COMMAND there
(e.g. a `CPX_BENCH_EXTRA` line) as LABEL. PEERS.csv adds copiers
measured elsewhere, one `row,copier,ratio` line each (`#` lines are comments): ratios from their own
run beside `cp -r`, drawn hatched and named as such. Writes IMAGE (PNG, or SVG by its name) and,
with --table, prints the markdown table of the same figures on stdout.

Needs matplotlib (Debian: `apt-get install python3-matplotlib`; run it with /usr/bin/python3, which
sees Debian's packages, rather than another python3 first on PATH).
"""

import argparse
import csv
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import ratios  # noqa: E402  (one definition of a ratio and its error)

DATASETS = {
    "linux": "Linux 6.1 source",
    "go": "Go 1.19 tree",
    "rust": "Rust 1.63 source",
    "files1000": "1,000 small files",
    "tiny100k": "100,000 tiny files",
    "flat100k": "one directory of 100,000 files",
    "big4x1g": "4 files of 1 GiB",
    "big4g": "one 4 GiB file",
    "sparse": "one sparse 8 GiB file",
    "scale": "nine Linux and nine Go trees",
}
ROW_NAME = re.compile(r"copiers-(warm|cold)-(ext4|tmpfs)-([A-Za-z0-9]+)$")


def row_of(path):
    """The row a result file belongs to, e.g. 'warm-tmpfs-linux', from its name."""
    m = ROW_NAME.search(os.path.splitext(os.path.basename(path))[0])
    if not m:
        raise SystemExit("chart.py: '%s' is not a copiers result (…-copiers-MODE-FS-DATASET.json)" % path)
    return "-".join(m.groups())


def label_of(row, files):
    mode, fs, dataset = row.split("-", 2)
    name = DATASETS.get(dataset, dataset)
    count = ("%s files, " % format(int(files), ",")) if files and dataset != "files1000" else ""
    return "%s (%s%s, %s cache)" % (name, count, fs, mode)


class Row:
    """One tree: per copier, its ratio to `cp -r`, the error, and the result file it came from."""

    def __init__(self, key):
        self.key = key
        self.files = None
        self.cells = {}      # copier -> (ratio, sd, source, cp -r mean seconds or None)

    def label(self):
        return label_of(self.key, self.files)


def load(paths, copiers):
    """Rows by key; copiers maps a command name in the result files to the label it is shown as."""
    rows = {}
    for path in sorted(paths, key=os.path.basename):   # later files win: their names start with the time
        doc = json.load(open(path))
        row = rows.setdefault(row_of(path), Row(row_of(path)))
        row.files = doc.get("dataset", {}).get("files") or row.files
        ref = next((r for r in doc["results"] if r["command"] == doc.get("reference", "cp -r")), None)
        for name, (q, sd) in ratios(doc["results"], doc.get("reference", "cp -r")).items():
            if name in copiers:
                row.cells[copiers[name]] = (q, sd, os.path.basename(path), ref["mean"])
    return rows


def load_peers(path, rows, peers):
    with open(path) as f:
        for line in csv.reader(l for l in f if l.strip() and not l.lstrip().startswith("#")):
            key, copier, q = (x.strip() for x in line)
            if key not in rows:
                continue            # a peer figure for a tree no result file was given for
            rows[key].cells[copier] = (float(q), None, os.path.basename(path), None)
            if copier not in peers:
                peers.append(copier)


def table(rows, columns, peers):
    head = ["tree", "`cp -r` (%s's run)" % columns[0].split()[0]] + [
        c + " ¹" if c in peers else ("**`%s`**" if c == columns[0] else "`%s`") % c for c in columns]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    sources = []
    for row in rows:
        cells = row.cells
        main = cells.get(columns[0])
        cp = ("%.3f s" % main[3] if main[3] < 10 else "%.1f s" % main[3]) if main and main[3] else "–"
        line = [row.label(), cp]
        for c in columns:
            if c not in cells:
                line.append("–")
                continue
            q, sd, src, _ = cells[c]
            text = "%.2f×" % q + (" ± %.2f" % sd if sd is not None else "")
            line.append("**%s**" % text if c == columns[0] else text)
            if src not in sources and c not in peers:
                sources.append(src)
        out.append("| " + " | ".join(line) + " |")
    return "\n".join(out), sources


def draw(rows, columns, peers, out, sources, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = {}
    palette = ["#1f6feb", "#8c8c8c", "#d08700", "#2da44e", "#a475f9", "#cf222e", "#57606a"]
    for i, c in enumerate(columns):
        colours[c] = palette[i % len(palette)]
    n = len(columns)
    height = 0.8 / n
    fig, ax = plt.subplots(figsize=(9, 0.9 + 1.05 * len(rows) + 0.25 * n))
    labels = []
    top = 0.0
    for i, row in enumerate(rows):
        y0 = len(rows) - 1 - i
        labels.append((y0, row.label()))
        for j, c in enumerate(columns):
            if c not in row.cells:
                continue
            q, sd, _, _ = row.cells[c]
            y = y0 + 0.4 - height * (j + 0.5)
            peer = c in peers
            ax.barh(y, q, height=height * 0.9, color=colours[c], alpha=0.55 if peer else 1.0,
                    hatch="///" if peer else None, edgecolor="white" if peer else colours[c],
                    xerr=sd if sd else None, error_kw={"elinewidth": 0.8, "capsize": 2, "ecolor": "#333333"},
                    label=c + " (peers' own run)" if peer else c)
            end = q + (sd or 0)
            top = max(top, end)
            ax.text(end + 0.03, y, "%.2f×" % q, va="center", fontsize=7.5,
                    fontweight="bold" if j == 0 else "normal")
    ax.axvline(1.0, color="#000000", linewidth=1, linestyle="--")
    ax.text(1.0, len(rows) - 0.5, " cp -r = 1", va="bottom", fontsize=8)
    ax.set_yticks([y for y, _ in labels])
    ax.set_yticklabels([l for _, l in labels], fontsize=9)
    ax.set_ylim(-0.6, len(rows) - 0.35)
    ax.set_xlim(0, top * 1.15)
    ax.set_xlabel("times as fast as cp -r (cp -r's mean time / the copier's, same run)\nhigher is faster", fontsize=9)
    ax.set_title(title, fontsize=11)
    handles, names = ax.get_legend_handles_labels()
    seen = {}
    for h, name in zip(handles, names):
        seen.setdefault(name, h)
    ax.legend(seen.values(), seen.keys(), fontsize=8, loc="lower right", frameon=False)
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    fig.text(0.01, 0.005, "made by benchmarks/chart.py from benchmarks/results/: " + ", ".join(
        s.replace(".json", "") for s in sources), fontsize=5.5, color="#555555", wrap=True)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    kwargs = {"metadata": {"Software": None}} if out.endswith(".png") else {"metadata": {"Date": None}}
    fig.savefig(out, dpi=110, **kwargs)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("results", nargs="+", help="bench.sh result files (…-copiers-MODE-FS-DATASET.json)")
    p.add_argument("--copiers", default="cpx -r,rsync -a", help="copiers to show from the result files, "
                   "comma-separated, the first one in bold; LABEL=COMMAND shows COMMAND as LABEL (default: %(default)s)")
    p.add_argument("--peers", help="CSV of row,copier,ratio from the peers' own run beside cp -r")
    p.add_argument("--out", help="image to write (.png or .svg)")
    p.add_argument("--table", action="store_true", help="print the markdown table")
    p.add_argument("--title", default="cpx against cp -r, rsync and its peers", help="the chart's title")
    a = p.parse_args()
    named = {}                                  # command name in the results -> label
    for c in (c.strip() for c in a.copiers.split(",")):
        if c:
            label, _, command = c.partition("=") if "=" in c else (c, "", c)
            named[command.strip()] = label.strip()
    copiers = list(named.values())
    by_key = load(a.results, named)
    peers = []
    if a.peers:
        load_peers(a.peers, by_key, peers)
    order = {"files1000": 0, "go": 1, "rust": 2, "linux": 3, "scale": 4}
    rows = sorted(by_key.values(), key=lambda r: (r.key.split("-")[0] == "cold", order.get(r.key.split("-", 2)[2], 9), r.key))
    columns = [c for c in copiers if any(c in r.cells for r in rows)] + peers
    missing = [c for c in copiers if c not in columns]
    if missing:
        print("chart.py: no result file given has " + ", ".join(missing), file=sys.stderr)
    text, sources = table(rows, columns, peers)
    if a.table:
        print(text)
        print()
        print("Result files: " + ", ".join("`%s`" % s.replace(".json", "") for s in sources))
    if a.out:
        draw(rows, columns, peers, a.out, sources, a.title)
    if not a.table and not a.out:
        p.error("nothing to do: give --out IMAGE and/or --table")


if __name__ == "__main__":
    main()
