# Shared by the benchmark scripts: where things are, the datasets, the machine description, and one
# hyperfine run with its results. Sourced, not run.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
REPO_DIR=$(cd "$BENCH_DIR/.." && pwd -P)

# Where datasets and copies live: benchmarks/ itself, or e.g. the mount point of fs-image.sh.
ROOT_DIR=${CPX_BENCH_ROOT:-$BENCH_DIR}
# Datasets, prepared once by prepare.sh (benchmarks/data is ignored by git).
DATA_DIR=${CPX_BENCH_DATA:-$ROOT_DIR/data}
# Destinations: by default next to the data, on the same file system.
WORK_DIR=${CPX_BENCH_WORK:-$ROOT_DIR/work}
# The tmpfs copy of the datasets (tmpfs mode: source and destination both in memory).
TMPFS_DIR=${CPX_BENCH_TMPFS:-/dev/shm/cpx-bench}
RESULTS_DIR=${CPX_BENCH_RESULTS:-$BENCH_DIR/results}
# The cpx command under test (the checkout's launcher by default).
CPX=${CPX:-$REPO_DIR/cpx}

# name|what|source (for the help text)
DATASETS=(
  "linux|Linux 6.1 source tree (~79k files, 1.4 GB)|/usr/src/linux-source-6.1.tar.xz, unpacked"
  "go|Go 1.19 source tree (~12k files, 146 MB)|/usr/share/go-1.19 (golang-src)"
  "rust|Rust 1.63 source tree (~37k files, 255 MB)|/usr/src/rustc-1.63.0 (rust-src)"
  "files1000|1,000 files in a source-tree shape (log-normal sizes around 3 KiB)|generated, seed 1000"
  "tiny100k|100k tiny files (0-4 KiB) in a source-tree shape|generated, seed 100000"
  "flat100k|one directory of 100k tiny files (0-4 KiB)|generated, seed 42"
  "big4x1g|4 files of 1 GiB|generated, seed 4"
  "big4g|one file of 4 GiB|generated, seed 44"
  "sparse|one 8 GiB sparse file with 64 data extents of 4 MiB (256 MiB of data)|generated, seed 8"
  "tiny1m|1M tiny files (0-4 KiB) in a source-tree shape (peak-memory runs only)|generated, seed 1000000"
  "scale|nine copies each of the Linux and Go trees side by side (~813k files, ~13 GB: issue 18's scale run)|made from the prepared linux and go datasets"
)
# Prepared by default (tiny1m only on request: it takes minutes and ~5 GB).
DEFAULT_DATASETS=(linux go rust files1000 tiny100k flat100k big4x1g big4g sparse)
# Copied to tmpfs by default (the big ones only on request: source and copy both live in RAM).
DEFAULT_TMPFS_DATASETS=(linux go rust files1000 tiny100k flat100k)

die() { echo "$(basename "$0"): $*" >&2; exit 1; }
note() { echo "== $*" >&2; }

is_dataset() {
  local d
  for d in "${DATASETS[@]}"; do [ "${d%%|*}" = "$1" ] && return 0; done
  return 1
}

dataset_list() {
  local d
  for d in "${DATASETS[@]}"; do
    IFS='|' read -r n what src <<<"$d"
    printf '  %-10s %s [%s]\n' "$n" "$what" "$src"
  done
}

# Source directory of a dataset: data dir, or its tmpfs copy with "tmpfs".
dataset_dir() {
  if [ "${2:-}" = tmpfs ]; then echo "$TMPFS_DIR/data/$1"; else echo "$DATA_DIR/$1"; fi
}

# "files=N dirs=N bytes=N" of a prepared dataset (written by prepare.sh next to it, and next to its
# tmpfs copy, which is all a tmpfs run may have when CPX_BENCH_DATA is not given).
dataset_info() {
  local f
  for f in "$DATA_DIR/$1.info" "$TMPFS_DIR/data/$1.info"; do
    [ -f "$f" ] && { cat "$f"; return; }
  done
  echo "files=? dirs=? bytes=?"
}

dataset_files() { dataset_info "$1" | sed -n 's/.*files=\([0-9]*\).*/\1/p'; }

# Builds cpx if needed (the launcher builds on first use) and checks that it runs.
ensure_cpx() {
  "$CPX" --version >/dev/null || die "cpx does not run: $CPX"
}

# Machine description as JSON on stdout. $1: source dir, $2: destination parent dir.
machine_json() {
  local src=$1 dst=$2 java_cmd=${JAVA_HOME:+$JAVA_HOME/bin/}java
  python3 - "$src" "$dst" "$java_cmd" "$CPX" <<'EOF'
import json, os, platform, subprocess, sys
src, dst, java, cpx = sys.argv[1:5]
def run(*cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        return (p.stdout + p.stderr).strip()
    except Exception as e:
        return "unavailable: %s" % e
def cpu_model():
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()
mem = {}
for line in open("/proc/meminfo"):
    k, v = line.split(":", 1)
    mem[k] = v.strip()
print(json.dumps({
    "cores": os.cpu_count(),
    "cpu": cpu_model(),
    "memory": mem.get("MemTotal"),
    "memory_available": mem.get("MemAvailable"),
    "kernel": platform.release(),
    "load_average": open("/proc/loadavg").read().split()[:3],
    "source_fs": run("df", "-T", src).splitlines()[-1],
    "destination_fs": run("df", "-T", dst).splitlines()[-1],
    "java": run(java, "-version"),
    "cpx": run(cpx, "--version"),
    "cp": run("cp", "--version").splitlines()[0],
    "rsync": run("rsync", "--version").splitlines()[0],
    "hyperfine": run("hyperfine", "--version"),
    "git_commit": run("git", "-C", os.environ.get("REPO_DIR", "."), "describe", "--always", "--dirty"),
    "cpx_java_opts": os.environ.get("CPX_JAVA_OPTS", ""),
    "note": os.environ.get("CPX_BENCH_NOTE", ""),
}, indent=2))
EOF
}

# Seconds to wait after deleting many files before timing file creation on the file system of $1.
# ext4 without a journal does not reuse an inode within 60 s of its deletion, or 360 s while its
# inode table block is dirty (RECENTCY_MIN/RECENTCY_DIRTY in fs/ext4/ialloc.c): meanwhile every new
# inode scans past all recently freed ones in its group, which made a copy made right after `rm -rf`
# of the previous copy 10-20 times slower, for every copier. Journaled ext4 (the usual kind) and other
# file systems do not do this. CPX_BENCH_SETTLE overrides.
settle_seconds() {
  if [ -n "${CPX_BENCH_SETTLE:-}" ]; then echo "$CPX_BENCH_SETTLE"; return; fi
  [ "$(df --output=fstype "$1" | tail -n 1)" = ext4 ] || { echo 0; return; }
  local dev
  dev=$(basename "$(readlink -f "$(df --output=source "$1" | tail -n 1)")")
  if [ "$(cat "/sys/fs/ext4/$dev/journal_task" 2>/dev/null)" = "<none>" ]; then echo 361; else echo 0; fi
}

# Runs hyperfine once over several commands and writes RESULTS_DIR/<stem>.{json,md}.
#   hyperfine_run STEM TITLE MODE DATASET SRC DST RUNS -- NAME CMD [NAME CMD]...
# Every command copies SRC to DST, which is removed before each run. MODE cold also drops the page
# cache before every run (root); warm does one warm-up run per command. Where freed inodes are not
# reused at once (settle_seconds > 0), the copies are moved aside instead, deleted only after the
# whole hyperfine run, and the next run waits the settle time first; a warning says when there is
# no space for that (and the results say which preparation was used).
hyperfine_run() {
  local stem=$1 title=$2 mode=$3 dataset=$4 src=$5 dst=$6 runs=$7
  shift 8
  local parent settle trash prepare
  parent=$(dirname "$dst")
  mkdir -p "$RESULTS_DIR" "$parent"
  settle=$(settle_seconds "$parent")
  trash=$parent/.trash
  rm -rf "$dst" "$trash"
  prepare="rm -rf '$dst' && sync"
  if [ "$settle" -gt 0 ]; then
    local warmups=1 copies need avail
    [ "$mode" = cold ] && warmups=0
    copies=$(( ($# / 2) * (runs + warmups) ))
    need=$(( ($(dataset_info "$dataset" | sed -n 's/.*allocated=\([0-9]*\).*/\1/p') + 0) * copies * 11 / 10 + (1 << 30) ))
    avail=$(df --output=avail -B1 "$parent" | tail -n 1)
    if [ "$need" -lt "$avail" ]; then
      prepare="mkdir -p '$trash' && { [ ! -e '$dst' ] || mv '$dst' '$trash'/\$(date +%s%N); } && sync"
    else
      note "warning: no space to keep $copies copies of $dataset aside ($((need >> 30)) GiB): deleting before every run; the times include ext4's inode reuse delay"
    fi
    note "waiting ${settle}s: freed inodes on this ext4 (no journal) are not reused at once (see settle_seconds in lib.sh)"
    sync
    sleep "$settle"
  fi
  local args=(--runs "$runs" --export-json "$RESULTS_DIR/$stem.hyperfine.json" --style basic)
  if [ "$mode" = cold ]; then
    [ -w /proc/sys/vm/drop_caches ] || die "cold mode drops the page cache: run as root"
    prepare="$prepare && echo 3 > /proc/sys/vm/drop_caches"
  else
    args+=(--warmup 1)
  fi
  args+=(--prepare "$prepare")
  local pairs=()
  while [ $# -gt 0 ]; do
    pairs+=(--command "$1" "$2")
    args+=(--command-name "$1" "$2")
    shift 2
  done
  local machine
  machine=$(REPO_DIR=$REPO_DIR machine_json "$src" "$parent")
  note "$title"
  hyperfine "${args[@]}" || die "hyperfine failed"
  rm -rf "$dst" "$trash"
  python3 "$BENCH_DIR/summarize.py" --merge "$RESULTS_DIR/$stem.hyperfine.json" \
    --title "$title" --mode "$mode" --source "$src" --destination "$dst" \
    --machine "$machine" --load-after "$(cut -d' ' -f1-3 /proc/loadavg)" --info "$(dataset_info "$dataset")" \
    --prepare "$prepare" --hyperfine "hyperfine ${args[*]@Q}" "${pairs[@]}" \
    --out "$RESULTS_DIR/$stem"
  rm -f "$RESULTS_DIR/$stem.hyperfine.json"
  note "wrote $RESULTS_DIR/$stem.md and .json"
}

# Parses "[warm|cold] [--tmpfs] [DATASET...]" into MODE, TMPFS (true/false) and NAMES (default: $DEFAULT_NAMES
# that are prepared). Calls usage for -h.
parse_run_args() {
  MODE=warm TMPFS=false NAMES=()
  local a n
  for a in "$@"; do
    case $a in
      warm|cold) MODE=$a ;;
      --tmpfs) TMPFS=true ;;
      -h|--help) usage; exit 0 ;;
      -*) usage >&2; exit 2 ;;
      *) is_dataset "$a" || die "unknown dataset: $a (see prepare.sh --list)"; NAMES+=("$a") ;;
    esac
  done
  if [ ${#NAMES[@]} -eq 0 ]; then
    for n in ${DEFAULT_NAMES[@]}; do
      if $TMPFS; then [ -d "$TMPFS_DIR/data/$n" ] && NAMES+=("$n"); else [ -f "$DATA_DIR/$n.info" ] && NAMES+=("$n"); fi
    done
    [ ${#NAMES[@]} -gt 0 ] || die "no prepared datasets: run benchmarks/prepare.sh$($TMPFS && echo ' and prepare.sh --tmpfs')"
  fi
  return 0
}

# Sets SRC, DST and WHERE (file system type, or tmpfs) for dataset $1 in the mode parsed above.
dataset_paths() {
  local work
  if $TMPFS; then
    SRC=$(dataset_dir "$1" tmpfs) work=$TMPFS_DIR/work WHERE=tmpfs
  else
    SRC=$(dataset_dir "$1") work=$WORK_DIR WHERE=$(df --output=fstype "$DATA_DIR" | tail -n 1)
  fi
  [ -d "$SRC" ] || die "$1 is not prepared in $SRC: run benchmarks/prepare.sh $($TMPFS && echo '--tmpfs ')$1"
  mkdir -p "$work"
  [ "$(stat -c %d "$SRC")" = "$(stat -c %d "$work")" ] || note "warning: $SRC and $work are on different file systems"
  DST=$work/$1-copy
}

# Title and file-name stem of a run: "<what>, warm cache, ext4 → same ext4" and "20250101-1200-<kind>-warm-ext4-<name>".
run_title() { echo "$2, $MODE cache, $($TMPFS && echo "tmpfs → tmpfs" || echo "$WHERE → same $WHERE")"; }
# A second run in the same minute gets "-2" (and so on) after the minute, so that no result file is overwritten.
run_stem() {
  local minute stem n=1
  minute=$(date +%Y%m%d-%H%M)
  stem=$minute-$1-$MODE-$WHERE-$2
  while [ -e "$RESULTS_DIR/$stem.json" ] || [ -e "$RESULTS_DIR/$stem.md" ]; do
    n=$((n + 1))
    stem=$minute-$n-$1-$MODE-$WHERE-$2
  done
  echo "$stem"
}
