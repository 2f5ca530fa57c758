#!/usr/bin/env bash
# Prepares the benchmark datasets once, so nothing is downloaded or generated at benchmark time.
#
#   benchmarks/prepare.sh [DATASET...]          into $CPX_BENCH_DATA (default benchmarks/data/)
#   benchmarks/prepare.sh --tmpfs [DATASET...]  copies prepared datasets to $CPX_BENCH_TMPFS (default /dev/shm/cpx-bench)
#   benchmarks/prepare.sh --list
#
# It installs nothing: it says which Debian packages are missing. A prepared dataset is skipped
# (delete DATA/NAME and DATA/NAME.info to redo it). Generated datasets are deterministic (seeded).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

GO_SRC=${CPX_BENCH_GO_SRC:-$(ls -d /usr/share/go-1.* 2>/dev/null | sort -V | tail -n 1 || true)}
RUST_SRC=${CPX_BENCH_RUST_SRC:-$(ls -d /usr/src/rustc-* 2>/dev/null | sort -V | tail -n 1 || true)}
LINUX_TAR=${CPX_BENCH_LINUX_TAR:-/usr/src/linux-source-6.1.tar.xz}

usage() {
  cat <<EOF
usage: $0 [--tmpfs] [DATASET...]
Datasets (default: ${DEFAULT_DATASETS[*]}; with --tmpfs: ${DEFAULT_TMPFS_DATASETS[*]}):
$(dataset_list)
Data: $DATA_DIR (CPX_BENCH_DATA)   tmpfs copy: $TMPFS_DIR (CPX_BENCH_TMPFS)
EOF
}

# The tools every script uses, and the Debian sources of the datasets named in "$@" only.
check_tools() {
  local missing=() pkgs=() wanted=" $* "
  command -v hyperfine >/dev/null || { missing+=(hyperfine); pkgs+=(hyperfine); }
  command -v rsync >/dev/null || { missing+=(rsync); pkgs+=(rsync); }
  command -v python3 >/dev/null || { missing+=(python3); pkgs+=(python3); }
  command -v strace >/dev/null || { missing+=("strace (syscalls.sh)"); pkgs+=(strace); }
  [ -x /usr/bin/time ] || { missing+=("/usr/bin/time (rss.sh)"); pkgs+=(time); }
  if [[ $wanted == *" linux "* ]] && [ ! -f "$LINUX_TAR" ]; then missing+=("$LINUX_TAR"); pkgs+=(linux-source-6.1); fi
  if [[ $wanted == *" go "* ]] && ! { [ -n "$GO_SRC" ] && [ -d "$GO_SRC/src" ]; }; then
    missing+=("Go source (/usr/share/go-1.*)"); pkgs+=(golang-src)
  fi
  if [[ $wanted == *" rust "* ]] && ! { [ -n "$RUST_SRC" ] && [ -d "$RUST_SRC" ]; }; then
    missing+=("Rust source (/usr/src/rustc-*)"); pkgs+=(rust-src)
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    echo "missing: ${missing[*]}" >&2
    echo "install with:  apt-get install ${pkgs[*]}" >&2
    echo "(the full set: apt-get install hyperfine rsync python3 strace time linux-source-6.1 golang-src rust-src)" >&2
    exit 1
  fi
}

# files=N dirs=N symlinks=N bytes=N (apparent) allocated=N of a directory.
describe() {
  local d=$1
  echo "files=$(find "$d" -type f | wc -l) dirs=$(find "$d" -type d | wc -l) symlinks=$(find "$d" -type l | wc -l)" \
    "bytes=$(du -s --apparent-size -B1 "$d" | cut -f1) allocated=$(du -s -B1 "$d" | cut -f1)"
}

make_dataset() {
  local name=$1 dir=$DATA_DIR/$1 tmp=$DATA_DIR/$1.partial gen=$BENCH_DIR/gendata.py
  case $name in
    linux)
      mkdir -p "$tmp"
      tar -xf "$LINUX_TAR" -C "$tmp"
      mv "$tmp"/linux-source-* "$tmp.tree"
      rmdir "$tmp"
      mv "$tmp.tree" "$tmp" ;;
    go) cp -a "$GO_SRC" "$tmp" ;;
    rust) cp -a "$RUST_SRC" "$tmp" ;;
    files1000) python3 "$gen" tree "$tmp" --files 1000 --sizes source --seed 1000 ;;
    tiny100k) python3 "$gen" tree "$tmp" --files 100000 --sizes tiny --seed 100000 ;;
    tiny1m) python3 "$gen" tree "$tmp" --files 1000000 --sizes tiny --seed 1000000 ;;
    scale)
      # Real copies (no hard links), so that every file is its own inode and its own data.
      local i part
      for part in linux go; do
        [ -f "$DATA_DIR/$part.info" ] || make_dataset "$part"
      done
      mkdir -p "$tmp"
      for i in 0 1 2 3 4 5 6 7 8; do
        cp -a "$DATA_DIR/linux" "$tmp/linux-$i"
        cp -a "$DATA_DIR/go" "$tmp/go-$i"
      done ;;
    flat100k) python3 "$gen" flat "$tmp" --files 100000 --seed 42 ;;
    big4x1g) python3 "$gen" big "$tmp" --count 4 --size $((1 << 30)) --seed 4 ;;
    big4g) python3 "$gen" big "$tmp" --count 1 --size $((4 << 30)) --seed 44 ;;
    sparse) python3 "$gen" sparse "$tmp" --size $((8 << 30)) --extents 64 --extent-size $((4 << 20)) --seed 8 ;;
    *) die "unknown dataset: $name" ;;
  esac
  mv "$tmp" "$dir"
  describe "$dir" >"$dir.info"
}

prepare_data() {
  check_tools "$@"
  mkdir -p "$DATA_DIR"
  local name
  for name in "$@"; do
    if [ -f "$DATA_DIR/$name.info" ] && [ -d "$DATA_DIR/$name" ]; then
      note "$name: already prepared ($(cat "$DATA_DIR/$name.info"))"
      continue
    fi
    rm -rf "${DATA_DIR:?}/$name" "$DATA_DIR/$name.partial" "$DATA_DIR/$name.partial.tree" "$DATA_DIR/$name.info"
    note "$name: preparing in $DATA_DIR/$name"
    local t0=$SECONDS
    make_dataset "$name"
    note "$name: done in $((SECONDS - t0)) s ($(cat "$DATA_DIR/$name.info"))"
  done
}

# Copies prepared datasets to the tmpfs, if source and one copy fit in it and in free memory.
prepare_tmpfs() {
  local parent
  parent=$(dirname "$TMPFS_DIR")
  [ "$(stat -f -c %T "$parent")" = tmpfs ] || die "$parent is not a tmpfs (set CPX_BENCH_TMPFS)"
  mkdir -p "$TMPFS_DIR/data" "$TMPFS_DIR/work"
  local name
  for name in "$@"; do
    local src=$DATA_DIR/$name dst=$TMPFS_DIR/data/$name
    [ -f "$DATA_DIR/$name.info" ] || die "$name is not prepared: run $0 $name first"
    if [ -f "$dst.info" ] && [ -d "$dst" ]; then
      note "$name: already on tmpfs ($dst)"
      continue
    fi
    local need avail_fs avail_mem headroom=$((2 << 30))
    need=$(du -s -B1 "$src" | cut -f1)
    avail_fs=$(df --output=avail -B1 "$TMPFS_DIR" | tail -n 1)
    avail_mem=$(($(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' /proc/meminfo) * 1024))
    if [ $((2 * need + headroom)) -gt "$avail_fs" ] || [ $((2 * need + headroom)) -gt "$avail_mem" ]; then
      die "$name needs $((2 * need >> 20)) MiB on tmpfs (source and one copy) + 2 GiB headroom; tmpfs has $((avail_fs >> 20)) MiB, memory $((avail_mem >> 20)) MiB available"
    fi
    note "$name: copying to $dst ($((need >> 20)) MiB)"
    rm -rf "$dst" "$dst.partial"
    cp -a "$src" "$dst.partial"
    mv "$dst.partial" "$dst"
    cp "$DATA_DIR/$name.info" "$dst.info"
  done
  note "tmpfs use: $(du -sh "$TMPFS_DIR" | cut -f1) in $TMPFS_DIR (remove it when done: rm -rf $TMPFS_DIR)"
}

tmpfs=false
names=()
for a in "$@"; do
  case $a in
    --tmpfs) tmpfs=true ;;
    --list) dataset_list; exit 0 ;;
    -h|--help) usage; exit 0 ;;
    -*) usage >&2; exit 2 ;;
    *) is_dataset "$a" || die "unknown dataset: $a (see --list)"; names+=("$a") ;;
  esac
done
if $tmpfs; then
  [ ${#names[@]} -gt 0 ] || names=("${DEFAULT_TMPFS_DATASETS[@]}")
  prepare_tmpfs "${names[@]}"
else
  [ ${#names[@]} -gt 0 ] || names=("${DEFAULT_DATASETS[@]}")
  prepare_data "${names[@]}"
fi
