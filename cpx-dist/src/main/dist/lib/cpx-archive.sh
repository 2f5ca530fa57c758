# shellcheck shell=bash
# The class data sharing archive's training, in one place: sourced by install, by the checkout's
# ./cpx after its build, and by bin/cpx where it makes a user's archive itself. Functions only:
# sourcing it runs nothing.

# cpx_training_tree DIR LIB: writes DIR, the tree a training run copies: a copy of LIB (the jars) and a
# directory holding an empty and a small file, a symbolic link, and a file of 16 MiB (named out of
# turn: Dispatch.NAMED_OUT_OF_TURN; a hole but for its last byte), each a path of a tree's copy, so
# that their classes and lambdas are in the archive (the jars alone left the others to be made at
# every run: a tree's first link loaded three classes from the jar and spun six lambdas and method
# handles; a 1,000-file tree with one link 4.9 +- 2.3 ms faster, one without the same). The system's
# cp (`command -p`: the default PATH), never the `cp` of the user's PATH: where that is cpx itself
# (linked as cp), the checkout's launcher, its sources changed, ran this build again from inside it,
# without end.
cpx_training_tree() {
  mkdir -p "$1/d" && : > "$1/d/empty" && printf 'x\n' > "$1/d/small" && command -p cp -R "$2" "$1/lib" \
    && ln -s small "$1/d/link" && truncate -s 16777216 "$1/d/large" && printf 'x' >> "$1/d/large"
}

# cpx_archive_train JAVA MAJOR ARGS_FILE CLASSPATH WORK JVM_FLAG...: one training run of cpx
# (JVM_FLAG... first, as a launcher gives them) copying WORK/train (cpx_training_tree), which leaves
# WORK/cpx.aot on JDK 25 and later (an AOT cache, made with cpx.jvm-aot next to ARGS_FILE, which the
# launcher gives with it) or WORK/cpx.jsa on JDK 17 to 24: a static archive of the classes the
# training run loaded (its class list, dumped with -Xshare:dump), checked to load with -Xshare:on
# before it counts. It replaces the JDK's own archive rather than adding a dynamic one on top: 12 MB
# mapped instead of 16 (the JDK's holds ~400 classes cpx never loads), and every mapped page is
# written once as the JVM relocates it, a page fault each (13.5 us on the guests measured; a
# 1,000-file copy 14.1 ms faster, docs/performance.md, twenty-first session). Prints "aot" or
# "static"; fails, printing nothing, where none was made.
cpx_archive_train() {
  local java=$1 major=$2 args_file=$3 classpath=$4 work=$5
  shift 5
  if [ "$major" -ge 25 ]; then
    cpx_training_copy "$java" "$classpath" "$work" "$@" "@${args_file%.jvm-args}.jvm-aot" \
      -XX:AOTCacheOutput="$work/cpx.aot" -Xlog:aot=off -Xlog:cds=off \
      && [ -s "$work/cpx.aot" ] && echo aot
  else
    cpx_training_copy "$java" "$classpath" "$work" "$@" -XX:DumpLoadedClassList="$work/cpx.classlist" \
      -Xlog:cds=off -Xlog:cds+dynamic=off \
      && "$java" "$@" -Xshare:dump -XX:SharedClassListFile="$work/cpx.classlist" -XX:SharedArchiveFile="$work/cpx.jsa" \
        -Xlog:cds=off -cp "$classpath" >/dev/null 2>&1 \
      && cpx_archive_loads "$java" "$work/cpx.jsa" "$classpath" "$@" && echo static
  fi
}

# cpx_archive_train_dynamic JAVA JAVA_HOME CLASSPATH WORK JVM_FLAG...: the same training run on JDK
# 17 or 18, leaving WORK/cpx.jsa, a dynamic archive on top of the JDK's own (none where JAVA_HOME has
# none): what bin/cpx's job makes in a user's cache for a Java that install did not see, where the
# JVM of JDK 19+ makes one itself (-XX:+AutoCreateSharedArchive). Prints "dynamic" or fails.
cpx_archive_train_dynamic() {
  local java=$1 java_home=$2 classpath=$3 work=$4
  shift 4
  [ -f "$java_home/lib/server/classes.jsa" ] \
    && cpx_training_copy "$java" "$classpath" "$work" "$@" -XX:ArchiveClassesAtExit="$work/cpx.jsa" \
      -Xlog:cds=off -Xlog:cds+dynamic=off \
    && cpx_archive_loads "$java" "$work/cpx.jsa" "$classpath" "$@" && echo dynamic
}

# cpx_training_copy JAVA CLASSPATH WORK JVM_FLAG...: the training run itself, cpx copying WORK/train
# (cpx_training_tree) to WORK/copy with the JVM flags given, its output dropped.
cpx_training_copy() {
  local java=$1 classpath=$2 work=$3
  shift 3
  "$java" "$@" -cp "$classpath" dev.cpx.cli.Main -r -q --no-config "$work/train" "$work/copy" >/dev/null 2>&1
}

# cpx_archive_loads JAVA ARCHIVE CLASSPATH JVM_FLAG...: whether a JVM starts with ARCHIVE (-Xshare:on
# refuses to start where it cannot map it).
cpx_archive_loads() {
  local java=$1 archive=$2 classpath=$3
  shift 3
  "$java" "$@" -Xshare:on -XX:SharedArchiveFile="$archive" -Xlog:cds=off -Xlog:cds+dynamic=off \
    -cp "$classpath" dev.cpx.cli.Main --version >/dev/null 2>&1
}
