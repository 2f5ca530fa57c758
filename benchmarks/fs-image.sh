#!/usr/bin/env bash
# A dedicated, journaled ext4 for the benchmarks, in an image file on a loop device (root).
#
#   benchmarks/fs-image.sh mount [SIZE]   create (once, sparse, default 48G) and mount; prints the export to use
#   benchmarks/fs-image.sh umount         unmount and detach (the image and its datasets stay)
#   benchmarks/fs-image.sh status
#
# Why: timings on a shared or unusual root file system mislead. Other processes' file deletions and
# an ext4 without a journal (whose inode allocator avoids recently freed inodes, see settle_seconds
# in lib.sh) made the same `cp -r` take 0.4 s or 9 s. The image is made with mkfs.ext4's defaults
# (a journal, like most Linux installations), mounted with the default options (relatime), and
# attached with direct I/O so cold-cache runs read the disk instead of a second page cache.
# Then: export CPX_BENCH_ROOT=<mount point>; benchmarks/prepare.sh; benchmarks/bench.sh ...
# Environment: CPX_BENCH_IMAGE (default benchmarks/fs/ext4.img), CPX_BENCH_IMAGE_MNT (default benchmarks/fs/mnt).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

IMAGE=${CPX_BENCH_IMAGE:-$BENCH_DIR/fs/ext4.img}
MNT=${CPX_BENCH_IMAGE_MNT:-$BENCH_DIR/fs/mnt}

loop_of() { losetup -j "$IMAGE" -O NAME -n 2>/dev/null | head -n 1; }

case ${1:-status} in
  mount)
    [ "$(id -u)" = 0 ] || die "needs root (losetup, mount)"
    if mountpoint -q "$MNT"; then
      note "already mounted: $(findmnt -n -o SOURCE,FSTYPE,OPTIONS "$MNT")"
    else
      mkdir -p "$(dirname "$IMAGE")" "$MNT"
      if [ ! -f "$IMAGE" ]; then
        truncate -s "${2:-48G}" "$IMAGE"
        mkfs.ext4 -q -L cpx-bench "$IMAGE"
        note "created $IMAGE (${2:-48G}, sparse, journaled ext4)"
      fi
      dev=$(loop_of)
      [ -n "$dev" ] || dev=$(losetup --find --show --direct-io=on "$IMAGE")
      mount "$dev" "$MNT"
      note "mounted $dev at $MNT (direct I/O: $(cat "/sys/block/$(basename "$dev")/loop/dio"))"
    fi
    echo "export CPX_BENCH_ROOT=$MNT"
    ;;
  umount)
    mountpoint -q "$MNT" && umount "$MNT"
    dev=$(loop_of)
    [ -z "$dev" ] || losetup -d "$dev"
    note "unmounted; the image stays: $IMAGE (delete it to free the space)"
    ;;
  status)
    if mountpoint -q "$MNT"; then findmnt -n -o SOURCE,FSTYPE,OPTIONS "$MNT"; df -h "$MNT"; else echo "not mounted ($MNT)"; fi
    ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
esac
