#!/usr/bin/env bash
# Peak memory (maximum resident set size from /usr/bin/time -v) of cp -r and cpx on big trees, and
# whether cpx stays flat as the file count grows (100k vs 1M generated files).
#
#   benchmarks/rss.sh [--tmpfs] [DATASET...]      (default: linux tiny100k tiny1m, those prepared)
#
# tiny1m is prepared only on request: benchmarks/prepare.sh tiny1m (a few minutes, ~5 GB).
# Environment: CPX, CPX_BENCH_CPX_ARGS, CPX_BENCH_NOTE, and the directories of lib.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

[ -x /usr/bin/time ] || die "/usr/bin/time is missing: apt-get install time"
DEFAULT_NAMES="linux tiny100k tiny1m"
parse_run_args "$@"
ensure_cpx
cpx_cmd="$CPX${CPX_BENCH_CPX_ARGS:+ $CPX_BENCH_CPX_ARGS}"
mkdir -p "$RESULTS_DIR"

datasets=()
for name in "${NAMES[@]}"; do
  dataset_paths "$name"
  datasets+=(--dataset "$name" "$SRC" "$DST" "$(dataset_files "$name")")
done
stem=$RESULTS_DIR/$(run_stem rss "$(IFS=-; echo "${NAMES[*]}")")
note "peak RSS: ${NAMES[*]}"
python3 "$BENCH_DIR/measure.py" rss --out "$stem" --title "Peak memory: ${NAMES[*]}, $WHERE → same $WHERE" \
  --machine "$(REPO_DIR=$REPO_DIR machine_json "$SRC" "$(dirname "$DST")")" "${datasets[@]}" \
  --copier "cp -r" "cp -r {src} {dst}" \
  --copier "cpx -r" "$cpx_cmd -r {src} {dst}"
note "wrote $stem.md and .json"
