#!/bin/bash
# usage: GNU_COREUTILS_SRC=DIR run-gnu-test.sh CP_PROGRAM tests/cp/X.sh  -- runs one GNU coreutils 9.1 test with src/cp = CP_PROGRAM
# (log in /tmp/gnut.*.log; the last line printed is "TEST rc=N log=LOG").
# Beyond the original harness: every program of /usr/bin counts as built; a setuidgid stand-in made with
# setpriv (GNU's test helper, not installed by Debian); a config.h saying what this system has (libcap,
# utimensat, openat; no SELinux); NON_ROOT_USERNAME=cpxtest; expensive tests on; CC=gcc for the LD_PRELOAD
# tests (very expensive ones only with GNUT_VERY_EXPENSIVE=yes: perm.sh runs cp 1,176 times); a test that skips as root (skip_if_root_) runs as cpxtest; one that needs two groups runs with
# root's group and cpxtest's.
cp_prog=$1; test=$2
top=${GNU_COREUTILS_SRC:?set GNU_COREUTILS_SRC to an unpacked coreutils-9.1 source tree}
b=$(mktemp -d /tmp/gnut.XXXXXX)
chmod 755 "$b"
mkdir -p "$b/src"
ln -s "$top/tests" "$b/tests"; ln -s "$top/init.cfg" "$b/init.cfg"; ln -s "$top/src/"*.c "$b/src/" 2>/dev/null
for p in /usr/bin/* /usr/sbin/*; do n=$(basename "$p"); [ -e "$b/src/$n" ] || ln -s "$p" "$b/src/$n"; done
rm -f "$b/src/cp"; ln -s "$cp_prog" "$b/src/cp"
# ginstall etc
ln -sf /usr/bin/install "$b/src/ginstall"
cat > "$b/src/setuidgid" <<'SH'
#!/bin/bash
# setuidgid [-g GID[,GID...]] USER COMMAND...: GNU's test helper, with setpriv
groups=
if [ "$1" = -g ]; then groups=$2; shift 2; fi
user=$1; shift
uid=$(id -u "$user") || exit 111
if [ -n "$groups" ]; then
  exec setpriv --reuid="$uid" --regid="${groups%%,*}" --groups="$groups" -- "$@"
fi
exec setpriv --reuid="$uid" --regid="$(id -g "$user")" --clear-groups -- "$@"
SH
chmod 755 "$b/src/setuidgid"
cat > "$b/config.h" <<'H'
#define HAVE_CAP 1
#define HAVE_UTIMENSAT 1
#define HAVE_LUTIMES 1
#define HAVE_OPENAT 1
#define HAVE_FDOPENDIR 1
#define USE_ACL 1
H
cd "$b"
progs=$(ls "$b/src" | grep -v '\.c$' | tr '\n' ' ')
run=()
user=${NON_ROOT_USERNAME:-cpxtest}
if grep -q '^skip_if_root_' "$top/$test"; then
  chown -R "$user:" "$b"
  run=(setpriv --reuid="$(id -u $user)" --regid="$(id -g $user)" --clear-groups --)
elif grep -q '^require_membership_in_two_groups_' "$top/$test"; then
  run=(setpriv --groups="0,$(id -g $user)" --)
fi
"${run[@]}" env srcdir=. abs_top_srcdir=$top abs_srcdir=$top abs_top_builddir=$b abs_builddir=$b built_programs="$progs" \
  CONFIG_HEADER="$b/config.h" PACKAGE_VERSION=9.1 NON_ROOT_USERNAME=$user RUN_EXPENSIVE_TESTS=yes RUN_VERY_EXPENSIVE_TESTS=${GNUT_VERY_EXPENSIVE:-no} CC=gcc \
  PATH="$b/src:$PATH" VERBOSE=yes bash "$test" > "$b.log" 2>&1
rc=$?
echo "$test rc=$rc log=$b.log"
rm -rf "$b"
exit $rc
