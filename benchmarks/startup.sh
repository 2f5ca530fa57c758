#!/usr/bin/env bash
# Where cpx's fixed cost goes: the JVM alone, `cpx --version`, and `cpx -r` on a small tree with
# start-up options, side by side with `cp -r` in one hyperfine run.
#
#   benchmarks/startup.sh [warm|cold] [--tmpfs] [DATASET]     (default: files1000)
#
# Variants (through CPX_JAVA_OPTS, which the ./cpx launcher appends to its JVM flags):
#   no launcher  the launcher's java command run directly (no bash, no build check)
#   (JNA's `/sbin/ldconfig -p` child process at every start is gone: the launcher gives JNA an empty
#   -Djna.platform.library.path and libc is loaded by file name)
#   JNA lib      -Djna.boot.library.path=<dir with libjnidispatch.so> -Djna.nounpack=true: JNA's native
#                part is not extracted from its jar into ~/.cache/JNA at every start
#   AppCDS       -XX:SharedArchiveFile=<archive of the classes one copy loads>, made first with
#                -XX:ArchiveClassesAtExit (JDK 13+); picocli's classes (Java 5 class files) are left out
#   C2           -XX:TieredStopAtLevel=4: the launcher's C1-only setting undone
# Only meaningful with the ./cpx launcher (CPX unset or pointing at it).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

DEFAULT_NAMES="files1000"
parse_run_args "$@"
ensure_cpx
name=${NAMES[0]}
dataset_paths "$name"

aux=$WORK_DIR/startup
mkdir -p "$aux"
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
jna_jar=$(ls "$REPO_DIR"/cpx-cli/target/lib/jna-*.jar | head -n 1)
(cd "$aux" && unzip -o -q -j "$jna_jar" 'com/sun/jna/linux-x86-64/libjnidispatch.so' -d jna) || die "no linux-x86-64 JNA library in $jna_jar"
rm -rf "$aux/cds.jsa" "$aux/cds-copy"
CPX_JAVA_OPTS="-XX:ArchiveClassesAtExit=$aux/cds.jsa -Xlog:cds=off" "$CPX" -r "$SRC" "$aux/cds-copy" >/dev/null 2>&1
rm -rf "$aux/cds-copy"
[ -f "$aux/cds.jsa" ] || die "could not create the AppCDS archive"

# The launcher's own java command line, captured with a stand-in java that prints its arguments
# (in a Java home whose release file is the real one's, as the launcher reads the version there).
mkdir -p "$aux/fake/bin"
printf '#!/bin/sh\nprintf "%%s\\n" "$@"\n' >"$aux/fake/bin/java"
chmod +x "$aux/fake/bin/java"
real_home=$(readlink -f "$(command -v "$java")"); real_home=${real_home%/bin/java}
cp "$real_home/release" "$aux/fake/release" || die "no release file in $real_home"
mapfile -t launcher_args < <(JAVA_HOME=$aux/fake "$CPX" -r SRC DST)
direct="$java"
for arg in "${launcher_args[@]}"; do
  case $arg in SRC) arg=$SRC ;; DST) arg=$DST ;; esac
  direct+=" $(printf '%q' "$arg")"
done

cds="-XX:SharedArchiveFile=$aux/cds.jsa -Xlog:cds=off"
jna="-Djna.boot.library.path=$aux/jna -Djna.nounpack=true"
all=${direct/ -cp / $cds $jna -cp }
hyperfine_run "$(run_stem startup "$name")" "Start-up: $(run_title startup "$name")" "$MODE" "$name" "$SRC" "$DST" \
  "${CPX_BENCH_RUNS:-20}" -- \
  "cp -r" "cp -r $SRC $DST" \
  "java -version (JVM alone)" "$java -Xshare:auto -version" \
  "cpx --version" "$CPX --version" \
  "cpx -r" "$CPX -r $SRC $DST" \
  "cpx -r, no launcher" "$direct" \
  "cpx -r, JNA lib" "CPX_JAVA_OPTS='$jna' $CPX -r $SRC $DST" \
  "cpx -r, AppCDS" "CPX_JAVA_OPTS='$cds' $CPX -r $SRC $DST" \
  "cpx -r, all three" "$all" \
  "cpx -r, C2" "CPX_JAVA_OPTS='-XX:TieredStopAtLevel=4' $CPX -r $SRC $DST"
