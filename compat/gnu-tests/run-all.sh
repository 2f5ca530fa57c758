#!/bin/bash
# usage: run-all.sh PROGRAM OUTDIR [TEST...] -- runs tests/cp/*.sh (or the named ones) with src/cp = PROGRAM;
# OUTDIR gets each log and summary.txt: NAME PASS|FAIL|SKIP|ERROR rc seconds [skip reason]
prog=$1; out=$2; shift 2; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
cd "${GNU_COREUTILS_SRC:?set GNU_COREUTILS_SRC to an unpacked coreutils-9.1 source tree}"
tests=("$@"); [ ${#tests[@]} -eq 0 ] && tests=(tests/cp/*.sh)
for t in "${tests[@]}"; do
  n=$(basename "$t" .sh)
  start=$(date +%s)
  line=$(timeout 1200 "$here/run-gnu-test.sh" "$prog" "tests/cp/$n.sh" 2>&1 | tail -1)
  rc=${line#*rc=}; rc=${rc%% *}
  log=${line##*log=}
  [ -f "$log" ] && mv "$log" "$out/$n.log"
  case $rc in 0) s=PASS;; 77) s=SKIP;; 99) s=ERROR;; *) s=FAIL;; esac
  why=$(grep -h -m1 -o 'skipped test: .*' "$out/$n.log" 2>/dev/null | sed "s/'$//")
  echo "$n $s rc=$rc $(( $(date +%s) - start ))s $why"
done | tee -a "$out/summary.txt"
