#!/bin/bash
# The overhead of planning, docs/cluster.md: a tree (default the Linux 6.1 source tree) copied by one
# single-machine cpx -a, and by plan + one worker + finish, ROUNDS times interleaved, onto the same
# file system. Usage: benchmarks/cluster-linux.sh [SOURCE] [WORKDIR] [ROUNDS]
# The source is only read. Needs GNU time (/usr/bin/time). Every copy is kept until the end: on ext4
# without a journal a copy made right after deleting another pays for the freed inodes (see
# settle_seconds in lib.sh), so nothing is deleted between the timed steps (2 x ROUNDS copies of the
# tree must fit), and a deletion before the run is followed by the settle time.
set -euo pipefail
src=${1:-/work/bench-data/linux}
work=${2:-/var/tmp/cpx-linux}
rounds=${3:-2}
cpx=${CPX:-$(cd "$(dirname "$0")/.." && pwd)/cpx}
. "$(dirname "$0")/lib.sh"
if [ -e "$work" ]; then rm -rf "$work"; mkdir -p "$work"; s=$(settle_seconds "$work"); echo "settling ${s}s after deleting $work" >&2; sleep "$s"; fi
mkdir -p "$work"
"$cpx" --version >/dev/null   # the launcher builds cpx first if its sources changed: not in the figures
t() { /usr/bin/time -f "%e s wall, %U+%S s CPU, %M KB peak RSS" "$@"; }
echo "source: $src ($(find "$src" -type f | wc -l) files; $(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg))"
find "$src" -type f -print0 | xargs -0 cat > /dev/null   # warm
for r in $(seq 1 "$rounds"); do
  echo -n "round $r cpx -a: "; t "$cpx" -q -a "$src" "$work/single-$r" 2>&1 | tail -1
  echo -n "round $r cpx --plan: "; t "$cpx" -q --plan="$work/plan-$r" --chunks=64 -a "$src" "$work/dst-$r" 2>&1 | tail -1
  echo -n "round $r cpx --work -j 4: "; t "$cpx" -q --work="$work/plan-$r" -j 4 2>&1 | tail -1
  echo -n "round $r cpx --finish: "; t "$cpx" -q --finish="$work/plan-$r" 2>&1 | tail -1
done
rm -rf "$work"
