#!/bin/bash
# Scale figures of docs/cluster.md: plan time against find, peak RSS of the plan and of each worker,
# chunk balance, and the whole run with 1, 2 and 4 workers against one single-machine cpx -a.
# Usage: benchmarks/cluster-scale.sh FILES [WORKDIR] [WORKERS...]
#   e.g. benchmarks/cluster-scale.sh 1000000 /var/tmp/cpx-scale 1 2 4
# FILES small files (0-4 KiB) in directories of 100 are made under WORKDIR (removed at the end).
# Needs GNU time (/usr/bin/time). Prints one line per figure; CPU times are user + system seconds.
set -euo pipefail
files=${1:-100000}
work=${2:-/var/tmp/cpx-scale}
shift 2 || shift $#
[ $# -gt 0 ] && workers=("$@") || workers=(1 2 4)
cpx=${CPX:-$(cd "$(dirname "$0")/.." && pwd)/cpx}
rm -rf "$work"; mkdir -p "$work"; cd "$work"
python3 - "$files" <<'PY'
import os, sys, random
n = int(sys.argv[1]); r = random.Random(1)
for i in range(n):
    d = f"src/d{i // 10000}/e{(i // 100) % 100}"
    if i % 100 == 0:
        os.makedirs(d, exist_ok=True)
    with open(f"{d}/f{i}", "wb") as f:
        f.write(os.urandom(r.randint(0, 4096)))
PY
sync
"$cpx" --version >/dev/null   # the launcher builds cpx first if its sources changed: not in the figures
t() { /usr/bin/time -f "%e s wall, %U+%S s CPU, %M KB peak RSS" "$@"; }
echo "files: $files ($(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo -n "find -type f | wc -l: "; t bash -c 'find src -type f | wc -l >/dev/null' 2>&1 | tail -1
echo -n "find with stat (find -printf %s): "; t bash -c 'find src -printf "%s\n" >/dev/null' 2>&1 | tail -1
echo -n "cpx --plan (64 chunks): "; t "$cpx" -q --plan=plan --chunks=64 -a src dst 2>&1 | tail -1
awk 'NR>1 {n++; e+=$2; b+=$3; if ($2>me) me=$2; if ($3>mb) mb=$3} END {printf "chunk balance: %d chunks, largest/mean entries %.3f, largest/mean bytes %.3f\n", n, me/(e/n), mb/(b/n)}' plan/manifest
rm -rf plan dst
echo -n "cpx -a (one machine): "; t "$cpx" -q -a src single 2>&1 | tail -1
rm -rf single
for w in "${workers[@]}"; do
  start=$(date +%s.%N)
  "$cpx" -q --plan=plan --chunks=64 -a src dst
  planned=$(date +%s.%N)
  for i in $(seq 1 "$w"); do
    /usr/bin/time -o "rss.$i" -f "%M KB %U+%S s CPU" "$cpx" -q --work=plan -j 4 &
  done
  wait
  worked=$(date +%s.%N)
  "$cpx" -q --finish=plan
  end=$(date +%s.%N)
  rss=$(cat rss.* | sort -n | paste -sd ';' -)
  echo "$w workers: plan $(echo "$planned - $start" | bc) s, work $(echo "$worked - $planned" | bc) s, finish $(echo "$end - $worked" | bc) s, total $(echo "$end - $start" | bc) s; each worker's peak RSS and CPU: $rss"
  rm -rf plan dst rss.*
done
rm -rf "$work"
