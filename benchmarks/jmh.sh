#!/usr/bin/env bash
# Runs the cpx-jmh benchmarks (engines per file size, per thread count, 1 GiB files, buffer sizes)
# and writes results/<stamp>-jmh-<mode>.{json,txt,md}.
#
#   benchmarks/jmh.sh [quick|full] [JMH options and benchmark regexps...]
#
# quick: 1 warm-up and 5 measured iterations of 1 s (about 7 minutes on 2 cores);
# full: the iterations in the annotations (3 warm-up + 5 measured of 2 s; about 20 minutes).
# Files are written in $CPX_BENCH_WORK/jmh, so on the benchmark file system. Engines are those
# ServiceLoader finds: put plugin jars in CPX_JMH_CLASSPATH (colon-separated) to benchmark them too.
# Examples: benchmarks/jmh.sh quick EngineBenchmark;  benchmarks/jmh.sh full -p size=4096
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mode=quick
case ${1:-} in
  quick|full) mode=$1; shift ;;
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
jar=$REPO_DIR/cpx-jmh/target/benchmarks.jar
(cd "$REPO_DIR" && ./mvnw -q -B -pl cpx-jmh -am package -DskipTests) || die "build of cpx-jmh failed"
mkdir -p "$RESULTS_DIR" "$WORK_DIR/jmh"
stem=$RESULTS_DIR/$(date +%Y%m%d-%H%M)-jmh-$mode
opts=(-rf json -rff "$stem.json" -jvmArgsAppend "-Dcpx.jmh.dir=$WORK_DIR/jmh")
if [ "$mode" = quick ]; then
  # Short iterations, unless given on the command line (JMH refuses an option twice).
  for d in "-f 1" "-wi 1" "-i 5" "-w 1s" "-r 1s"; do
    [[ " $* " == *" ${d% *} "* ]] || opts+=($d)
  done
fi
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
# This JVM decides which engines are available: it needs the engines' flags (BenchmarkMain.ENGINE_JVM_FLAGS),
# the @argfile the build writes from the parent pom's cpx.jvm.opens.
flags=("@$REPO_DIR/cpx-jmh/target/engine.jvm-args")
cmd=("$java" "${flags[@]}" -cp "$jar${CPX_JMH_CLASSPATH:+:$CPX_JMH_CLASSPATH}" dev.cpx.jmh.BenchmarkMain "${opts[@]}" "$@")
note "${cmd[*]}"
"${cmd[@]}" | tee "$stem.txt"
python3 "$BENCH_DIR/summarize.py" --jmh "$stem.json" --title "JMH ($mode): $(nproc) cores, $(df --output=fstype "$WORK_DIR/jmh" | tail -n 1)" \
  --machine "$(REPO_DIR=$REPO_DIR machine_json "$WORK_DIR/jmh" "$WORK_DIR/jmh")" --hyperfine "${cmd[*]}" --out "$stem"
note "wrote $stem.md, .json and .txt"
