#!/usr/bin/env bash
# Measures cpx with several worker counts side by side (one hyperfine run per dataset, `cp -r` as the
# reference), to choose the default -j from data.
#
#   benchmarks/jobs.sh [warm|cold] [--tmpfs] [DATASET...]     (default datasets: go linux)
#
# Environment: CPX_BENCH_JOBS (default "1 2 4 8 16"), CPX_BENCH_RUNS (default 5), CPX,
# CPX_BENCH_CPX_ARGS (e.g. "--engine=nio"), CPX_BENCH_NOTE, and the directories of lib.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

DEFAULT_NAMES="go linux"
parse_run_args "$@"
ensure_cpx
cpx_cmd="$CPX${CPX_BENCH_CPX_ARGS:+ $CPX_BENCH_CPX_ARGS}"

for name in "${NAMES[@]}"; do
  dataset_paths "$name"
  pairs=("cp -r" "cp -r $SRC $DST")
  for j in ${CPX_BENCH_JOBS:-1 2 4 8 16}; do
    pairs+=("cpx -r -j $j" "$cpx_cmd -r -j $j $SRC $DST")
  done
  hyperfine_run "$(run_stem jobs "$name")" "cpx -j N: $(run_title jobs "$name")" "$MODE" "$name" "$SRC" "$DST" \
    "${CPX_BENCH_RUNS:-5}" -- "${pairs[@]}"
done
