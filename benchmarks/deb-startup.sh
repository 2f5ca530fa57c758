#!/usr/bin/env bash
# The Debian package against the tarball install: `cpx --version`, and `cpx -r` of a small tree, each
# beside `cp -r` of that tree in one hyperfine run. The .deb runs on the system's Java with the class
# data sharing archive its postinst made; the tarball's install also links a runtime of its own
# (runtime/) from a JDK, and the tarball ships JNA's native part (lib/native): what the .deb gives up.
#
#   benchmarks/deb-startup.sh [warm|cold] [--tmpfs] [DATASET]     (default: files1000)
#
# Needs the built cpx-dist/target/cpx_*_all.deb and cpx-*-linux.tar.gz, root and apt. Installs the .deb
# when no cpx package is installed, and then purges it at the end; unpacks and installs the tarball
# twice (with a runtime of its own, and CPX_INSTALL_RUNTIME=0) in a temporary directory.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

DEFAULT_NAMES="files1000"
parse_run_args "$@"
name=${NAMES[0]}
dataset_paths "$name"

deb=$(ls "$REPO_DIR"/cpx-dist/target/cpx_*_all.deb 2>/dev/null | head -n 1)
tar=$(ls "$REPO_DIR"/cpx-dist/target/cpx-*-linux.tar.gz 2>/dev/null | head -n 1)
[ -n "$deb" ] && [ -n "$tar" ] || die "build first: ./mvnw -B -DskipTests package (no .deb or tarball in cpx-dist/target)"
[ "$(id -u)" = 0 ] || die "installing the .deb needs root"

tmp=$(mktemp -d)
installed_here=false
cleanup() {
  rm -rf "$tmp"
  if $installed_here; then
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 remove --purge -y -q cpx >/dev/null
  fi
}
trap cleanup EXIT
if ! dpkg-query -W -f '${db:Status-Abbrev}' cpx 2>/dev/null | grep -q '^ii'; then
  note "installing $deb"
  installed_here=true
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q "$deb" >/dev/null
fi
for kind in runtime jdk; do
  mkdir -p "$tmp/$kind"
  tar xzf "$tar" -C "$tmp/$kind"
  home=$(echo "$tmp/$kind"/cpx-*)
  if [ $kind = runtime ]; then "$home/install" >&2; else CPX_INSTALL_RUNTIME=0 "$home/install" >&2; fi
done
with_runtime=$(echo "$tmp"/runtime/cpx-*/bin/cpx)
without_runtime=$(echo "$tmp"/jdk/cpx-*/bin/cpx)

runs=${CPX_BENCH_RUNS:-20}
for what in version copy; do
  if [ $what = version ]; then args=(--version); else args=(-r "$SRC" "$DST"); fi
  hyperfine_run "$(run_stem deb-startup-$what "$name")" "$(run_title deb-startup "$name"): cpx ${args[0]}, .deb against tarball" \
    "$MODE" "$name" "$SRC" "$DST" "$runs" -- \
    "cp -r" "cp -r '$SRC' '$DST'" \
    ".deb: /usr/bin/cpx ${args[0]}" "/usr/bin/cpx ${args[*]@Q}" \
    "tarball, install (runtime/): cpx ${args[0]}" "'$with_runtime' ${args[*]@Q}" \
    "tarball, CPX_INSTALL_RUNTIME=0: cpx ${args[0]}" "'$without_runtime' ${args[*]@Q}"
done
