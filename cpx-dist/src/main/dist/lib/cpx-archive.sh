# shellcheck shell=bash
# The class data sharing archive's training, in one place: sourced by install, by the checkout's
# ./cpx after its build, and by bin/cpx where it makes a user's archive itself. Functions only:
# sourcing it runs nothing.

# cpx_training_tree DIR LIB: writes DIR, the tree a training run copies: a copy of LIB (the jars) and a
# directory holding an empty and a small file, each a path of a tree's copy, so that their classes and
# lambdas are in the archive (the jars alone left the others to be made at every run).
cpx_training_tree() {
  mkdir -p "$1/d" && : > "$1/d/empty" && printf 'x\n' > "$1/d/small" && cp -R "$2" "$1/lib"
}

# cpx_archive_train JAVA MAJOR JAVA_HOME ARGS_FILE CLASSPATH WORK JVM_FLAG...: one training run of cpx
# (JVM_FLAG... first, as a launcher gives them) copying WORK/train (cpx_training_tree), which leaves
# WORK/cpx.aot on JDK 25 and later (an AOT cache, made with cpx.jvm-aot next to ARGS_FILE, which the
# launcher gives with it) or WORK/cpx.jsa on JDK 17 to 24 where JAVA_HOME has the JDK's own archive
# (a dynamic archive on top of it, checked to load with -Xshare:on before it counts). Prints "aot" or
# "dynamic"; fails, printing nothing, where none was made.
cpx_archive_train() {
  local java=$1 major=$2 java_home=$3 args_file=$4 classpath=$5 work=$6
  shift 6
  if [ "$major" -ge 25 ]; then
    "$java" "$@" "@${args_file%.jvm-args}.jvm-aot" -XX:AOTCacheOutput="$work/cpx.aot" -Xlog:aot=off -Xlog:cds=off \
      -cp "$classpath" dev.cpx.cli.Main -r -q --no-config "$work/train" "$work/copy" >/dev/null 2>&1 \
      && [ -s "$work/cpx.aot" ] && echo aot
  elif [ -f "$java_home/lib/server/classes.jsa" ]; then
    "$java" "$@" -XX:ArchiveClassesAtExit="$work/cpx.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off \
      -cp "$classpath" dev.cpx.cli.Main -r -q --no-config "$work/train" "$work/copy" >/dev/null 2>&1 \
      && "$java" "$@" -Xshare:on -XX:SharedArchiveFile="$work/cpx.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off \
        -cp "$classpath" dev.cpx.cli.Main --version >/dev/null 2>&1 \
      && echo dynamic
  else
    return 1
  fi
}
