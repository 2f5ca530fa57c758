#!/usr/bin/env bash
# System calls per copied file: `strace -c -f` of cp -r and of cpx (each engine) on a dataset, minus
# the same command on an empty directory (start-up), divided by the file count. A count, not a time.
#
#   benchmarks/syscalls.sh [--tmpfs] [DATASET...]      (default: go)
#
# Environment: CPX, CPX_BENCH_CPX_ARGS, CPX_BENCH_NOTE, and the directories of lib.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

command -v strace >/dev/null || die "strace is missing: apt-get install strace"
DEFAULT_NAMES="go"
parse_run_args "$@"
ensure_cpx
cpx_cmd="$CPX${CPX_BENCH_CPX_ARGS:+ $CPX_BENCH_CPX_ARGS}"
mkdir -p "$RESULTS_DIR"

for name in "${NAMES[@]}"; do
  dataset_paths "$name"
  stem=$RESULTS_DIR/$(run_stem syscalls "$name")
  note "syscalls: $name ($SRC)"
  python3 "$BENCH_DIR/measure.py" syscalls --out "$stem" --title "System calls per file: $name, $WHERE → same $WHERE" \
    --machine "$(REPO_DIR=$REPO_DIR machine_json "$SRC" "$(dirname "$DST")")" \
    --src "$SRC" --dst "$DST" --files "$(dataset_files "$name")" \
    --copier "cp -r" "cp -r {src} {dst}" \
    --copier "cpx -r --engine=native" "$cpx_cmd -r --engine=native {src} {dst}" \
    --copier "cpx -r --engine=nio" "$cpx_cmd -r --engine=nio {src} {dst}"
  note "wrote $stem.md and .json"
done
