#!/usr/bin/env python3
"""Deep trees under a low descriptor limit, as an unprivileged user: cpx against GNU cp.

Chains of 250-400 directories (a second subdirectory every eleven levels, files and a link at every
level, directory modes 0500-0755, one unreadable directory in two of the trees), copied with -a, -r,
-rp, -a --no-preserve=mode and -R --preserve=timestamps, by cpx with its default workers, -j 1 and
-j 4, under ulimit -n 32, 48 and 64: 180 scenes. Each scene's two copies are compared by names,
types, modes, contents, link targets and (where kept) times to the nanosecond, with exit status and
messages. Needs root (it runs both as --user through setpriv) and ~10 minutes.

    cp-deep-limits.py [--cpx PATH] [--user NAME] [--work DIR]
"""
import argparse, hashlib, inspect, os, pwd, shutil, stat, subprocess, sys

CPX = BASE = USER = None
MODES = [0o755, 0o700, 0o555, 0o500, 0o750, 0o711]


def build(root, depth, unreadable_at=None, seed=0):
    d = root
    os.makedirs(d)
    dirs = [d]
    for i in range(depth):
        for j in range(2 if i % 7 else 3):
            p = os.path.join(d, f"f{j}")
            with open(p, "w") as f:
                f.write(f"{i}.{j}\n" * (i % 5))
            os.chmod(p, [0o644, 0o600, 0o755, 0o444][(i + j + seed) % 4])
            os.utime(p, ns=(1_600_000_000_123_456_789 + i, 1_600_000_000_987_654_321 + i))
        os.symlink("f0", os.path.join(d, "l"))
        if i % 11 == 3:
            os.makedirs(os.path.join(d, "side", "x"))
            with open(os.path.join(d, "side", "x", "g"), "w") as f:
                f.write("side")
        d = os.path.join(d, "d")
        os.mkdir(d)
        dirs.append(d)
    for i, x in enumerate(reversed(dirs)):
        level = len(dirs) - 1 - i
        mode = 0o311 if level == unreadable_at else MODES[(level + seed) % len(MODES)]
        os.utime(x, ns=(1_500_000_000_111_111_111 + level, 1_500_000_000_222_222_222 + level))
        os.chmod(x, mode)


# build() as the unprivileged user makes it, by a python -c of its own source: this file may be
# where that user cannot read it (a clone under a 0700 directory).
BUILD = (f"import os, sys\nMODES = {MODES!r}\n" + inspect.getsource(build)
         + "\nbuild(sys.argv[1], int(sys.argv[2]), None if sys.argv[3] == 'None' else int(sys.argv[3]), int(sys.argv[4]))\n")


def snapshot(root, times):
    out = []
    def walk(p, rel):
        st = os.lstat(p)
        kind = stat.S_IFMT(st.st_mode)
        body = ""
        if stat.S_ISREG(st.st_mode):
            try:
                with open(p, "rb") as f:
                    body = hashlib.md5(f.read()).hexdigest()[:8]
            except PermissionError:
                body = "?"
        elif stat.S_ISLNK(st.st_mode):
            body = os.readlink(p)
        t = st.st_mtime_ns if times and not stat.S_ISLNK(st.st_mode) else 0
        out.append((rel, oct(kind), oct(stat.S_IMODE(st.st_mode)), body, t))
        if stat.S_ISDIR(st.st_mode):
            try:
                names = sorted(os.listdir(p))
            except PermissionError:
                out.append((rel, "unlistable"))
                return
            for n in names:
                walk(os.path.join(p, n), rel + "/" + n)
    if os.path.lexists(root):
        walk(root, ".")
    return out


def run(program, args, cwd, limit):
    env = dict(os.environ, LC_ALL="C", HOME=BASE)
    env.pop("POSIXLY_CORRECT", None)
    cmd = ["setpriv", f"--reuid={USER.pw_uid}", f"--regid={USER.pw_gid}", "--clear-groups",
           "bash", "-c", f'ulimit -n {limit} && exec "$0" "$@"', program] + args
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env, timeout=600)
    err = sorted(l.replace(program + ":", "cp:").replace("cpx:", "cp:") for l in p.stderr.splitlines())
    return p.returncode, err


def chmod_all(root):
    if not os.path.lexists(root):
        return
    subprocess.run(["chmod", "-R", "u+rwx", root], capture_output=True)


def main():
    shutil.rmtree(BASE, ignore_errors=True)
    os.makedirs(BASE)
    os.chmod(BASE, 0o777)
    scenes = []
    for depth, unreadable, seed in [(400, None, 0), (400, 150, 1), (250, None, 2), (300, 299, 3)]:
        for opts in (["-a"], ["-r"], ["-rp"], ["-a", "--no-preserve=mode"], ["-R", "--preserve=timestamps"]):
            for extra in ([], ["-j", "1"], ["-j", "4"]):
                for limit in (32, 48, 64):
                    scenes.append((depth, unreadable, seed, opts, extra, limit))
    bad = 0
    built = {}
    for n, (depth, unreadable, seed, opts, extra, limit) in enumerate(scenes):
        key = (depth, unreadable, seed)
        if key not in built:
            src = os.path.join(BASE, f"src-{depth}-{unreadable}-{seed}")
            subprocess.run(["setpriv", f"--reuid={USER.pw_uid}", f"--regid={USER.pw_gid}", "--clear-groups",
                            sys.executable, "-c", BUILD, src, str(depth), str(unreadable), str(seed)], check=True)
            built[key] = src
        src = built[key]
        work = os.path.join(BASE, f"w{n}")
        os.makedirs(work)
        os.chmod(work, 0o777)
        results = []
        times = "-a" in opts or "-rp" in opts or "--preserve=timestamps" in opts
        for prog, args in (("/usr/bin/cp", opts), (CPX, extra + opts)):
            dst = os.path.join(work, "gnu" if prog == "/usr/bin/cp" else "cpx")
            rc, err = run(prog, args + [src, dst], work, limit)
            snap = snapshot(dst, times)
            results.append((rc, err, snap))
        g, c = results
        same = g == c
        print(f"{'ok ' if same else 'DIFF'} depth={depth} unreadable={unreadable} {' '.join(extra + opts)} ulimit={limit}: "
              f"exit {g[0]}/{c[0]}, {len(g[2])}/{len(c[2])} entries, {len(g[1])}/{len(c[1])} messages", flush=True)
        if not same:
            bad += 1
            if g[0] != c[0]:
                print("  exit", g[0], c[0])
            if g[1] != c[1]:
                print("  gnu err:", g[1][:5]); print("  cpx err:", c[1][:5])
            gs, cs = set(g[2]), set(c[2])
            for e in sorted(gs - cs)[:5]:
                print("  only gnu:", e)
            for e in sorted(cs - gs)[:5]:
                print("  only cpx:", e)
        else:
            chmod_all(work)
            shutil.rmtree(work, ignore_errors=True)
    print(f"{len(scenes)} scenes, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cpx", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "cpx"))
    p.add_argument("--user", default="cpxtest", help="the unprivileged user both copies run as")
    p.add_argument("--work", default="/tmp/cp-deep-limits", help="where the trees are made (removed first)")
    a = p.parse_args()
    CPX, BASE, USER = os.path.abspath(a.cpx), a.work, pwd.getpwnam(a.user)
    sys.exit(main())
