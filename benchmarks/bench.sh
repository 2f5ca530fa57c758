#!/usr/bin/env bash
# Copies each dataset with every copier side by side in ONE hyperfine run per dataset, so the
# ratios against `cp -r` come from the same conditions.
#
#   benchmarks/bench.sh [warm|cold] [--tmpfs] [DATASET...]
#
# warm: one warm-up run per copier, the source stays in the page cache.
# cold: before every run the destination is removed, `sync`, and the page cache dropped (root).
# --tmpfs: source and destination both on the tmpfs copy made by `prepare.sh --tmpfs`
#          (software overhead without the disk); otherwise both on the data directory's file system.
#
# Environment:
#   CPX               cpx command (default: the checkout's ./cpx launcher, built first)
#   CPX_BENCH_COPIERS which copiers, by id (default: all): cp-r cp-a rsync-a cpx cpx-native cpx-nio cpx-a
#   CPX_BENCH_EXTRA   extra copier commands, one per line, with {src} and {dst} (else SRC DST are appended)
#   CPX_BENCH_CPX_ARGS extra options for every cpx command (e.g. "-j 4")
#   CPX_BENCH_RUNS    runs per copier (default: by dataset size)
#   CPX_BENCH_NOTE    a note written at the top of each result (e.g. "machine shared with builds")
#   CPX_BENCH_DATA, CPX_BENCH_WORK, CPX_BENCH_TMPFS, CPX_BENCH_RESULTS: directories (see lib.sh)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# id|name shown|command template
COPIERS=(
  "cp-r|cp -r|cp -r {src} {dst}"
  "cp-a|cp -a|cp -a {src} {dst}"
  "rsync-a|rsync -a|rsync -a {src}/ {dst}"
  "cpx|cpx -r|{cpx} -r {src} {dst}"
  "cpx-native|cpx -r --engine=native|{cpx} -r --engine=native {src} {dst}"
  "cpx-nio|cpx -r --engine=nio|{cpx} -r --engine=nio {src} {dst}"
  "cpx-a|cpx -a|{cpx} -a {src} {dst}"
)

default_runs() {
  case $1 in
    files1000) echo 20 ;;
    go) echo 10 ;;
    big4x1g|big4g) echo 3 ;;
    tiny1m) echo 1 ;;
    *) echo 5 ;;
  esac
}

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  echo "Datasets:"
  dataset_list
}

DEFAULT_NAMES="${DEFAULT_DATASETS[*]}"
parse_run_args "$@"

ensure_cpx
cpx_cmd="$CPX${CPX_BENCH_CPX_ARGS:+ $CPX_BENCH_CPX_ARGS}"
wanted=" ${CPX_BENCH_COPIERS:-cp-r cp-a rsync-a cpx cpx-native cpx-nio cpx-a} "
[[ $wanted == *" cp-r "* ]] || wanted="$wanted cp-r "  # the reference of every ratio

for name in "${NAMES[@]}"; do
  dataset_paths "$name"
  pairs=()
  for c in "${COPIERS[@]}"; do
    IFS='|' read -r id shown template <<<"$c"
    [[ $wanted == *" $id "* ]] || continue
    cmd=${template//\{cpx\}/$cpx_cmd}
    cmd=${cmd//\{src\}/$SRC}
    pairs+=("$shown" "${cmd//\{dst\}/$DST}")
  done
  while IFS= read -r extra; do
    [ -n "$extra" ] || continue
    if [[ $extra == *"{src}"* ]]; then cmd=${extra//\{src\}/$SRC}; cmd=${cmd//\{dst\}/$DST}; else cmd="$extra $SRC $DST"; fi
    pairs+=("$extra" "$cmd")
  done <<<"${CPX_BENCH_EXTRA:-}"
  hyperfine_run "$(run_stem copiers "$name")" "$(run_title copiers "$name")" "$MODE" "$name" "$SRC" "$DST" \
    "${CPX_BENCH_RUNS:-$(default_runs "$name")}" -- "${pairs[@]}"
done
