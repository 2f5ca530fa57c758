#!/usr/bin/env python3
"""Plans of trees at the edge of PATH_MAX, as an unprivileged user: cpx's planner against GNU cp.

Each scene is a chain of directories whose deepest one lies a few bytes below PATH_MAX on the
source side, the copy side or both (the operands as given: "s<pad>" copied to "t<pad>/dst"), with
files, FIFOs, symbolic links, empty directories and directories holding a file at the bottom, their
names of random lengths, so that some of them reach PATH_MAX and some do not; some scenes stay
wholly below, some only from the operands made absolute (the scene's directory is 20-odd bytes). GNU cp copies the tree (-a, -r, -R --preserve=timestamps, -rL) to "gnu", of the same
length as "dst". The rule (docs/cluster.md): where GNU cp copies everything, `cpx --plan`, `--work`
and `--finish` make the same tree (names, types, modes, contents, link targets, times where kept);
where GNU cp fails at an entry, the planner refuses the tree with exit 1 and one line, which is one
of GNU's lines, and leaves neither a plan nor a copy; where GNU cp copies from the relative operands
but an absolute path (how the plan's workers reach the entries) reaches PATH_MAX, the planner
refuses the same way, its line naming the absolute path (and may do so where GNU cp fails too, for
an entry it meets before the first one beyond GNU's reach). Needs root (the copies run as --user through
setpriv) and a few minutes.

    cp-plan-reach.py [--cpx PATH] [--user NAME] [--work DIR] [--scenes N] [--seed N] [--only N]
"""
import argparse, hashlib, os, pwd, random, re, stat, subprocess, sys

CPX = BASE = USER = None
PATH_MAX = 4096


def as_user(args, cwd, check=False):
    env = dict(os.environ, LC_ALL="C", HOME=BASE)
    env.pop("POSIXLY_CORRECT", None)
    cmd = ["setpriv", f"--reuid={USER.pw_uid}", f"--regid={USER.pw_gid}", "--clear-groups"] + args
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env, timeout=600)
    if check and p.returncode != 0:
        raise RuntimeError(f"{args}: {p.returncode} {p.stderr}")
    return p


def short(line):
    """A message with its long path cut in the middle."""
    return line if len(line) < 160 else f"{line[:60]}...({len(line)} chars)...{line[-90:]}"


def make_scene(rng, n):
    """One scene: its shell script (run as the user in the scene's directory) and its copy options."""
    side = rng.choice(["source", "copy", "both"])
    pad_s = rng.randint(1, 60) if side in ("source", "both") else 0
    pad_t = rng.randint(1, 60) if side in ("copy", "both") else 0
    src = "s" + "x" * pad_s
    parent = "t" + "y" * pad_t
    longest = max(len(src), len(parent) + len("/dst"))
    # The deepest directory's path from the operands: PATH_MAX less a margin; wholly below in one scene of five.
    margin = rng.randint(150, 300) if rng.random() < 0.2 else rng.randint(2, 70)
    room = PATH_MAX - margin - longest
    levels = []
    while room > 0:
        m = min(rng.randint(1, 40), room - 1) if room > 1 else 0
        if m <= 0:
            break
        levels.append(rng.choice("abcdefgh") * m)
        room -= m + 1
    chain = "/".join(levels)
    entries = []
    for i in range(rng.randint(2, 6)):
        name = f"{i}" + "e" * rng.randint(0, 60)
        kind = rng.choice(["file", "file", "fifo", "link", "dir", "emptydir"])
        if kind == "file":
            entries.append(f"printf '%s\\n' {i}{'z' * rng.randint(0, 9)} > {name} && chmod {rng.choice(['644', '600', '755'])} {name}")
        elif kind == "fifo":
            entries.append(f"mkfifo {name}")
        elif kind == "link":
            entries.append(f"ln -s {rng.choice(['0', '../x', 'dangling'])} {name}")
        elif kind == "dir":
            entries.append(f"mkdir {name} && echo c > {name}/c{'c' * rng.randint(0, 40)}")
        else:
            entries.append(f"mkdir -m {rng.choice(['755', '700'])} {name}")
    script = (f"mkdir -p {src}/{chain} {parent} && cd -P {src}/{chain} && " + " && ".join(entries)
              + f" && touch -h -d @{1_600_000_000 + n} *")
    opts = rng.choice([["-a"], ["-r"], ["-R", "--preserve=timestamps"], ["-rL"]])
    return side, src, parent, opts, script


def snapshot(parent_fd, name, times):
    """Every entry below parent_fd/name, walked by descriptor (the paths reach PATH_MAX)."""
    out = []

    def walk(dir_fd, n, rel):
        try:
            st = os.lstat(n, dir_fd=dir_fd)
        except FileNotFoundError:
            return
        body = ""
        if stat.S_ISREG(st.st_mode):
            fd = os.open(n, os.O_RDONLY, dir_fd=dir_fd)
            with os.fdopen(fd, "rb") as f:
                body = hashlib.md5(f.read()).hexdigest()[:8]
        elif stat.S_ISLNK(st.st_mode):
            body = os.readlink(n, dir_fd=dir_fd)
        t = st.st_mtime_ns if times and not stat.S_ISLNK(st.st_mode) else 0
        out.append((rel, oct(stat.S_IFMT(st.st_mode)), oct(stat.S_IMODE(st.st_mode)), body, t))
        if stat.S_ISDIR(st.st_mode):
            fd = os.open(n, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=dir_fd)
            try:
                for child in sorted(os.listdir(fd)):
                    walk(fd, child, rel + "/" + child)
            finally:
                os.close(fd)

    walk(parent_fd, name, ".")
    return out


def beyond_workers(plan, work):
    """Whether the plan was refused, with nothing left, for an entry whose absolute path (how the
    workers reach it, its copy under the staging name where the tree is staged) reaches PATH_MAX,
    GNU's message naming that path."""
    lines = plan.stderr.splitlines()
    if plan.returncode != 1 or len(lines) != 1 or os.path.lexists(os.path.join(work, "plan")):
        return False
    m = re.fullmatch(r"cpx: cannot (?:stat|create [a-z ]+) '(/[^']*)': File name too long", lines[0])
    return bool(m) and m.group(1).startswith(work + "/") and len(m.group(1).encode()) >= PATH_MAX


def main(scenes, seed, only=None):
    subprocess.run(["rm", "-rf", "--", BASE])
    os.makedirs(BASE)
    os.chmod(BASE, 0o777)
    rng = random.Random(seed)
    bad = refused = copied = workers_refused = 0
    for n in range(scenes):
        side, src, parent, opts, script = make_scene(rng, n)
        if only is not None and n != only:
            continue
        work = os.path.join(BASE, f"w{n}")
        os.makedirs(work)
        os.chmod(work, 0o777)
        as_user(["bash", "-c", script], work, check=True)
        gnu = as_user(["/usr/bin/cp"] + opts + [src, f"{parent}/gnu"], work)
        plan = as_user([CPX, "--plan=plan"] + opts + [src, f"{parent}/dst"], work)
        problems = []
        if gnu.returncode == 0 and beyond_workers(plan, work):
            workers_refused += 1
        elif gnu.returncode == 0:
            copied += 1
            if plan.returncode != 0:
                problems.append(f"GNU copies the tree, the plan exits {plan.returncode}: {plan.stderr.strip()}")
            else:
                work_run = as_user([CPX, "--work=plan"], work)
                finish = as_user([CPX, "--finish=plan"], work)
                if work_run.returncode != 0 or finish.returncode != 0:
                    problems.append(f"work exit {work_run.returncode}, finish exit {finish.returncode}: "
                                    + " | ".join(short(l) for l in (work_run.stderr + finish.stderr).splitlines()[:4]))
                times = opts != ["-r"] and opts != ["-rL"]
                fd = os.open(os.path.join(work, parent), os.O_RDONLY | os.O_DIRECTORY)
                try:
                    g, c = snapshot(fd, "gnu", times), snapshot(fd, "dst", times)
                finally:
                    os.close(fd)
                if g != c:
                    gs, cs = set(g), set(c)
                    problems.append(f"trees differ: only GNU {[short(str(e)) for e in sorted(gs - cs)[:3]]}, "
                                    f"only cpx {[short(str(e)) for e in sorted(cs - gs)[:3]]}")
        else:
            refused += 1
            gnu_lines = {l.replace("/usr/bin/cp: ", "cpx: ", 1).replace(f"{parent}/gnu", f"{parent}/dst") for l in gnu.stderr.splitlines()}
            lines = plan.stderr.splitlines()
            if plan.returncode != 1:
                problems.append(f"GNU fails (exit {gnu.returncode}), the plan exits {plan.returncode}")
            if beyond_workers(plan, work):
                pass  # refused at an entry beyond the workers' reach met before the first beyond GNU's
            elif len(lines) != 1 or lines[0] not in gnu_lines:
                problems.append(f"the plan's lines {[short(l) for l in lines[:3]]} are not one of GNU's {[short(l) for l in sorted(gnu_lines)[:3]]}")
            if os.path.lexists(os.path.join(work, "plan")) or os.path.lexists(os.path.join(work, parent, "dst")):
                problems.append("a refused plan left a plan or a copy")
        print(f"{'DIFF' if problems else 'ok  '} scene {n}: {side} side, {' '.join(opts)}, GNU exit {gnu.returncode}, plan exit {plan.returncode}",
              flush=True)
        for p in problems:
            print("   ", p)
        if problems:
            bad += 1
        elif only is None:
            subprocess.run(["rm", "-rf", "--", work])
    print(f"{scenes if only is None else 1} scenes ({copied} copied by GNU cp and the plan, {workers_refused} copied by GNU cp "
          f"from the relative operands and refused by the planner as beyond its workers' reach, {refused} where GNU cp fails), "
          f"{bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cpx", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "cpx"))
    p.add_argument("--user", default="cpxtest", help="the unprivileged user the copies run as")
    p.add_argument("--work", default="/tmp/cp-plan-reach", help="where the trees are made (removed first)")
    p.add_argument("--scenes", type=int, default=60)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", type=int, help="run this scene alone and keep its directory")
    a = p.parse_args()
    CPX, BASE, USER = os.path.abspath(a.cpx), a.work, pwd.getpwnam(a.user)
    sys.exit(main(a.scenes, a.seed, a.only))
