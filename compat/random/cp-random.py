#!/usr/bin/env python3
"""Random differential runs: cpx against GNU cp on generated trees and option sets.

Each case (one seed) builds the same random scene twice (source trees with odd names, hard and symbolic
links, sparse and set-uid files, or several files named on the command line (a fifth of the cases,
their messages then compared in order); a destination that is absent, a directory, a directory holding an
older copy, a file, a link to a directory or a dangling link; operands sometimes written with a
trailing slash), runs /usr/bin/cp in one and cpx in the other with the same 1 to 4 options (in half
of the cases written another way getopt reads alike: clustered, abbreviated, after the operands), and
compares exit status, stdout, stderr and the destination tree (types, modes, contents, link targets,
which names share an inode), and that the sources were not changed. A mismatch is printed with its
seed; `--keep` leaves its scenes under the work directory to look at.

What cpx documents as different (docs/gnu-compatibility.md) is not reported: the order of -v lines
and of messages within a recursive copy (compared sorted, also in the quarter of cases where cpx runs
with -j 1, which copies in GNU's order: the twin scenes' inode numbers differ), the program name in messages and in
"Try '... --help'"; GNU 9.1's simple backups put in the working directory rather than beside the
copies in another directory (a 9.1 bug, README) are counted apart. Every mismatch found so far became a row of the differential suite judged by
/usr/bin/cp (cpx-cli/src/test/java/dev/cpx/cli/differential/) or a line of that document.

    compat/random/cp-random.py [--cpx ./cpx] [--first 1] [--count 200] [--work /tmp/cp-random] [--keep] [--copies] [--plan]

With --plan, cpx copies each case by a plan (--plan, then --work and --finish), the options a plan
refuses and -v left out; its plan's own lines ("planned N chunks", the summaries) are not compared.
Counted apart: a plan refused as a whole at the first of cp's failures, and destination files kept
as complete by --resume's rule, whose rules a plan's workers copy by (docs/cluster.md).
CPX_RANDOM_PLAN_WORKERS=N runs N workers at once on each plan, cut into CPX_RANDOM_PLAN_CHUNKS
chunks (6 unless set).

Run as root (some options keep owners; a quarter of the cases run as the unprivileged user cpxtest,
uid 999, which cpx-cli's tests make); each case takes about half a second. Prompts (-i) read the
same random answers in both scenes.
"""
import argparse
import concurrent.futures
import hashlib
import os
import random
import re
import shutil
import stat
import subprocess
import sys

OPTIONS = ["-r", "-R", "-a", "-p", "-d", "-P", "-L", "-H", "-l", "-u", "-n", "-f", "-b", "--backup=numbered",
           "-S .bk", "--parents", "--remove-destination", "--preserve=links", "--no-preserve=mode",
           "--strip-trailing-slashes", "--sparse=always", "--attributes-only", "--copy-contents", "-v", "-T",
           "--preserve=all", "-x", "--no-dereference", "-s", "--reflink=never", "--preserve=mode,timestamps",
           "--no-preserve=all", "--update", "-HL", "-lL", "--link --preserve=links", "-dR", "-i", "-i",
           "--backup=existing", "--backup=simple", "-bf", "-fi"]
# GNU cp 9.1's long options (cp.c long_opts), for abbreviations that getopt_long reads as the whole name.
GNU_LONG = ["--archive", "--attributes-only", "--backup", "--copy-contents", "--dereference", "--force",
            "--interactive", "--link", "--no-clobber", "--no-dereference", "--no-preserve", "--no-target-directory",
            "--one-file-system", "--parents", "--path", "--preserve", "--recursive", "--remove-destination",
            "--sparse", "--reflink", "--strip-trailing-slashes", "--suffix", "--symbolic-link",
            "--target-directory", "--update", "--verbose", "--context", "--help", "--version"]
SAME = {"--path": "--parents"}
DESTINATIONS = ["absent", "dir", "dir with an older copy", "file", "link to dir", "dangling link"]
# Names as bytes: invalid UTF-8 (surrogate-escaped by Python), a space, single quotes among them; a
# quote beside a byte to escape is what GNU's quoting writes twice (cpx's ShellQuote).
NAMES = ["a", "b", "c", "d", "e", "f", "x y", "\u00e9", "n\udcff", "it's", "\x01'q"]


def make_tree(root, rnd, depth=0):
    """A random tree under root: files of several sizes and modes, subdirectories, links, a sparse file."""
    os.makedirs(root, exist_ok=True)
    files = []
    for i in range(rnd.randint(0, 4)):
        k = rnd.random()
        p = os.path.join(root, rnd.choice(NAMES) + str(i))
        if os.path.lexists(p):
            continue
        if k < 0.45:
            with open(p, "wb") as f:
                f.write(rnd.randbytes(rnd.choice([0, 1, 100, 5000, 70000])))
            os.chmod(p, rnd.choice([0o644, 0o600, 0o755, 0o444, 0o4755]))
            files.append(p)
        elif k < 0.65 and depth < 2:
            make_tree(p, rnd, depth + 1)
        elif k < 0.75:
            os.symlink(rnd.choice(["a0", "../b1", "/etc/hostname", "nowhere", "."]), p)
        elif k < 0.85 and files:
            os.link(rnd.choice(files), p)
        elif k < 0.9:
            with open(p, "wb") as f:
                f.truncate(100000)
                f.seek(50000)
                f.write(b"x")
        else:
            os.mkdir(p)
            os.chmod(p, rnd.choice([0o755, 0o700, 0o555]))
    return files


def snapshot(root, scene):
    """Every entry under root: type, mode, content digest or link target, and its hard-link group."""
    if not os.path.lexists(root):
        return ["<absent>"]
    out, groups = [], {}
    for dirpath, dirs, files in os.walk(root):
        for n in sorted(dirs + files):
            p = os.path.join(dirpath, n)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                value = os.readlink(p).replace(scene, "SCENE")
            elif stat.S_ISREG(st.st_mode):
                with open(p, "rb") as f:
                    value = hashlib.md5(f.read()).hexdigest()[:8] + ":" + str(st.st_size)
            else:
                value = ""
            group = groups.setdefault((st.st_dev, st.st_ino), len(groups)) \
                if st.st_nlink > 1 and not stat.S_ISDIR(st.st_mode) else ""
            # (--parents with an absolute source copies the scene's own path under the destination.)
            out.append((os.path.relpath(p, root).replace(scene.lstrip("/"), "SCENE"), oct(stat.S_IFMT(st.st_mode)), oct(stat.S_IMODE(st.st_mode)), value, group,
                        st.st_uid, int(st.st_mtime) if not stat.S_ISDIR(st.st_mode) and not stat.S_ISLNK(st.st_mode) and int(st.st_mtime) < 1700000000 else "new"))
    st = os.lstat(root)
    digest = ""
    if stat.S_ISREG(st.st_mode):
        with open(root, "rb") as f:
            digest = hashlib.md5(f.read()).hexdigest()[:8] + ":" + str(st.st_size)
    out.append((".", oct(stat.S_IFMT(st.st_mode)), oct(stat.S_IMODE(st.st_mode)), digest, ""))
    return sorted(out, key=repr)


# The unprivileged user (uid, gid) some cases run as; cpx-cli's tests make it (useradd cpxtest).
USER = (999, 995)

# The share of cases cpx runs with -j 1 (copied in GNU's order); CPX_RANDOM_ONE_WORKER overrides.
ONE_WORKER_SHARE = float(os.environ.get("CPX_RANDOM_ONE_WORKER", "0.25"))


def run(program, scene, args, answers, user):
    command = [program] + args
    env = dict(os.environ, LC_ALL="C")
    if user:
        command = ["setpriv", f"--reuid={USER[0]}", f"--regid={USER[1]}", "--clear-groups"] + command
        env["HOME"] = "/tmp/cp-random-home"
    r = subprocess.run(command, cwd=scene, input=answers.encode(), capture_output=True, env=env, timeout=120)
    err = r.stderr.decode("utf-8", "replace")
    # The program's name starts each message, also after a prompt that has no newline of its own.
    err = re.sub(r"(^|\? )[^:\n?]*\b(cp|cpx): ", r"\1cp: ", err, flags=re.M)
    err = re.sub(r"Try '[^']*' for more", "Try 'cp --help' for more", err)
    return r.returncode, r.stdout.decode("utf-8", "replace"), err


# With --copies: destinations a copy goes into (an older copy twice as often), always recursive.
COPY_DESTINATIONS = ["absent", "dir", "dir with an older copy", "dir with an older copy", "link to dir"]


def abbreviation(name, rnd):
    """A prefix of the long option name that getopt_long still reads as it (unique, or naming the same option)."""
    prefixes = [name[:n] for n in range(3, len(name) + 1)
                if {SAME.get(o, o) for o in GNU_LONG if o.startswith(name[:n])} == {SAME.get(name, name)}]
    return rnd.choice(prefixes) if prefixes else name


def respell(argv, rnd):
    """The same options written as getopt reads them alike: short options clustered, long ones
    abbreviated, -S's value attached or after --suffix, and some of them after the operands.
    Returns the words before the operands and the words after them."""
    units, i = [], 0
    while i < len(argv):
        if argv[i] == "-S":
            units.append(rnd.choice([["-S", argv[i + 1]], ["-S" + argv[i + 1]], ["--suffix", argv[i + 1]],
                                     [abbreviation("--suffix", rnd) + "=" + argv[i + 1]]]))
            i += 2
            continue
        w = argv[i]
        if w.startswith("--"):
            name, eq, value = w.partition("=")
            w = abbreviation(name, rnd) + eq + value
        units.append([w])
        i += 1
    merged = []
    for u in units:
        flag = len(u) == 1 and re.fullmatch(r"-[a-zA-Z]+", u[0]) and "S" not in u[0]
        if flag and merged and re.fullmatch(r"-[a-zA-Z]+", merged[-1][-1]) and "S" not in merged[-1][-1] \
                and len(merged[-1]) == 1 and rnd.random() < 0.6:
            merged[-1] = [merged[-1][0] + u[0][1:]]
        else:
            merged.append(u)
    before, after = [], []
    for u in merged:
        (after if rnd.random() < 0.3 else before).extend(u)
    return before, after


# What a plan refuses (docs/cluster.md), and -v, whose lines a plan's steps do not print.
NOT_IN_PLANS = re.compile(r"^(--parents|-b|--backup.*|-S .*|-bf|-i|-fi|-l|-s|--link.*|-lL|--attributes-only"
                          r"|--remove-destination|-v)$")


def case(seed, cpx, work, copies=False, plan=False):
    """Runs one case in work/SEED/{gnu,cpx}; returns (options, destination, results of GNU cp, of cpx).
    With plan, cpx copies by a plan (--plan, --work, --finish), the options a plan takes only."""
    rnd = random.Random(seed)
    options = rnd.sample(OPTIONS, rnd.randint(1, 4))
    if plan:
        options = [o for o in options if not NOT_IN_PLANS.match(o)] or ["-r"]
    if not any(o in options for o in ["-r", "-R", "-a"]) and (copies or rnd.random() < 0.7):
        options.append("-r")
    argv = [w for o in options for w in o.split(" ")]
    sources = rnd.choice([1, 1, 2])
    # A fifth of the cases copy several files named on the command line (cp -i f0 f1 f2 D, over older
    # copies of some), whose questions, lines and messages come in the operands' order.
    file_operands = rnd.random() < 0.2
    if file_operands:
        sources = rnd.randint(2, 6)
        # What shows their order: questions and -v lines.
        argv += [o for o in ("-i", "-v") if rnd.random() < 0.4 and o not in argv and not plan]
    destination = rnd.choice(COPY_DESTINATIONS if copies else DESTINATIONS)
    slash, dest_slash, source_link = rnd.random() < 0.25, rnd.random() < 0.2, rnd.random() < 0.2
    recursive = any(a.startswith("-") and not a.startswith("--") and any(c in a for c in "rRa") for a in argv)
    # Answers for -i, the same for both; and a quarter of the cases as an unprivileged user.
    answers = "".join(rnd.choice(["y\n", "n\n"]) for _ in range(40))
    user = rnd.random() < 0.25
    # Half of the cases write the options another way getopt reads alike (its own generator: the
    # cases of earlier seeds stay what they were otherwise).
    spell = random.Random(seed * 13 + 5)
    leading, trailing = respell(argv, spell) if spell.random() < 0.5 else (argv, [])
    # One case in twenty has an empty operand ("$dest" unset): as the destination, or among the
    # sources. The whole scene is compared then, as a wrong reading copies into the working directory.
    empties = random.Random(seed * 17 + 3)
    empty = empties.choice(["destination", "source"]) if empties.random() < 0.05 else None
    # A quarter of the cases run cpx with one worker (-j 1), which copies in GNU's order (its other
    # way through the walk). Lines are compared sorted all the same: each directory's entries come in
    # the order of its inode numbers, which differ between the twin scenes (OneWorkerOrderTest
    # compares the order, in one scene).
    one_worker = random.Random(seed * 19 + 7).random() < ONE_WORKER_SHARE
    results = []
    for side, program in (("gnu", "/usr/bin/cp"), ("cpx", cpx)):
        scene = os.path.join(work, str(seed), side)
        os.makedirs(scene)
        trees = random.Random(seed * 7 + 1)
        names = []
        for i in range(sources):
            if file_operands:
                # A file of a few bytes to 2 MB (larger ones are copied on a worker of their own in cpx).
                with open(os.path.join(scene, f"f{i}"), "wb") as f:
                    f.write(trees.randbytes(trees.choice([0, 9, 5000, 2_000_000])))
                os.chmod(os.path.join(scene, f"f{i}"), trees.choice([0o644, 0o600, 0o444]))
                names.append(f"f{i}")
            else:
                make_tree(os.path.join(scene, f"s{i}"), trees)
                names.append(f"s{i}")
        if destination == "dir":
            os.mkdir(os.path.join(scene, "D"))
        elif destination == "dir with an older copy" and file_operands:
            os.mkdir(os.path.join(scene, "D"))
            for i in range(sources):
                if trees.random() < 0.7:
                    p = os.path.join(scene, "D", f"f{i}")
                    with open(p, "w") as f:
                        f.write("older")
                    when = trees.choice([1262304000, 1900000000])
                    os.utime(p, (when, when))
                    if trees.random() < 0.3:
                        os.chmod(p, 0o444)
        elif destination == "dir with an older copy":
            os.mkdir(os.path.join(scene, "D"))
            make_tree(os.path.join(scene, "D", "s0"), trees)
            # Older or newer than the sources (for -u), some read-only (for -f, -i), a backup there already.
            when = trees.choice([1262304000, 1900000000])
            for dirpath, dirs, files in os.walk(os.path.join(scene, "D")):
                for n in files:
                    p = os.path.join(dirpath, n)
                    if not os.path.islink(p):
                        os.utime(p, (when, when))
                        if trees.random() < 0.3:
                            os.chmod(p, 0o444)
                    if trees.random() < 0.2:
                        with open(p + ".~1~" if not os.path.lexists(p + ".~1~") else p + ".bk", "w") as f:
                            f.write("backup")
        elif destination == "file":
            with open(os.path.join(scene, "D"), "w") as f:
                f.write("old")
        elif destination == "link to dir":
            os.mkdir(os.path.join(scene, "Dreal"))
            os.symlink("Dreal", os.path.join(scene, "D"))
        elif destination == "dangling link":
            os.symlink("nowhere", os.path.join(scene, "D"))
        if source_link:
            os.symlink(names[0], os.path.join(scene, "sl"))
            names[0] = "sl"
        if slash:
            names = [n + "/" for n in names]
        if "-s" in argv:
            # Relative sources can only be linked into the working directory.
            names = [os.path.join(scene, n) for n in names]
        target = "D/" if dest_slash else "D"
        operands = names[:1] if "-T" in argv else list(names)
        if empty == "destination":
            target = ""
        elif empty == "source":
            operands.insert(random.Random(seed).randint(0, len(operands)), "")
        args = leading + operands + [target] + trailing
        if user:
            subprocess.run(["chown", "-R", "-h", f"{USER[0]}:{USER[1]}", scene], check=True)
        before = [snapshot(os.path.join(scene, n.rstrip("/")), scene) for n in names]
        destination_before = snapshot(scene if empty else os.path.join(scene, "Dreal" if destination == "link to dir" else "D"), scene)
        if plan and side == "cpx":
            rc, out, err = by_plan(program, scene, args, user)
        else:
            rc, out, err = run(program, scene, (["-j", "1"] + args) if one_worker and side == "cpx" else args, answers, user)
        after = [snapshot(os.path.join(scene, n.rstrip("/")), scene) for n in names]
        out, err = out.replace(scene, "SCENE"), err.replace(scene, "SCENE")
        if not file_operands and (recursive or sources > 1):
            out = "\n".join(sorted(out.split("\n")))
        if not file_operands and recursive:
            err = "\n".join(sorted(err.split("\n")))
        tree = snapshot(os.path.join(scene, "Dreal" if destination == "link to dir" else "D"), scene)
        if empty:
            # The whole scene, working directory included.
            tree = snapshot(scene, scene)
        results.append({"exit": rc, "stdout": out, "stderr": err, "tree": tree, "sources unchanged": before == after,
                        "destination before": destination_before})
    return (args + (["(unprivileged)"] if user else []) + (["(cpx -j 1)"] if one_worker and not plan else [])
            + (["(by a plan)"] if plan else []), destination, results[0], results[1])


# With --plan: how many workers copy a plan at once (CPX_RANDOM_PLAN_WORKERS), each plan then cut
# into CPX_RANDOM_PLAN_CHUNKS chunks.
PLAN_WORKERS = int(os.environ.get("CPX_RANDOM_PLAN_WORKERS", "1"))
PLAN_CHUNKS = int(os.environ.get("CPX_RANDOM_PLAN_CHUNKS", "6"))

# A plan's own lines on standard error: what it planned, what a worker and the finish copied (and
# the finish's list of failures under it, indented), which GNU has no counterpart of.
PLAN_LINES = re.compile(r"^cp: (planned \d+ chunks|worker copied \d+ chunks|copied \d+ files?)|^  ")


def by_plan(program, scene, args, user):
    """cpx copying args by a plan in the directory beside the scene: --plan, then one --work and
    --finish where it was made. The exit status of the first step that fails (else 0), the steps'
    standard output, and the plan's and the finish's messages without the plan's own lines."""
    home = os.path.join(os.path.dirname(scene), "plan-home")
    os.makedirs(home, exist_ok=True)
    if user:
        os.chown(home, *USER)
    plan = os.path.join(home, "plan")
    chunks = ["--chunks=" + str(PLAN_CHUNKS)] if PLAN_WORKERS > 1 else []
    rc, out, err = run(program, scene, ["--plan=" + plan] + chunks + args, "", user)
    steps = [(rc, out, err)]
    if rc == 0:
        if PLAN_WORKERS > 1:
            # Workers at once, each claiming chunks as the others do; their messages summed as one.
            with concurrent.futures.ThreadPoolExecutor(PLAN_WORKERS) as pool:
                done = list(pool.map(lambda _: run(program, scene, ["--work=" + plan], "", user), range(PLAN_WORKERS)))
            steps.append((max(r for r, _, _ in done), "".join(o for _, o, _ in done), "".join(e for _, _, e in done)))
        else:
            steps.append(run(program, scene, ["--work=" + plan], "", user))
        steps.append(run(program, scene, ["--finish=" + plan], "", user))
    status = next((r for r, _, _ in steps if r != 0), 0)
    # The plan's messages, then the finish's, which repeat every worker's; a plan names its paths
    # absolute (its workers may run elsewhere), GNU cp as given.
    lines = [l.replace(scene + "/", "") for i, (_, _, e) in enumerate(steps) if i != 1
             for l in e.split("\n") if l and not PLAN_LINES.match(l)]
    return status, "".join(o for _, o, _ in steps), "".join(l + "\n" for l in lines)


def backup_suffix(args):
    """The backup suffix the options give (-S X, -SX, --suffix=X or an abbreviation, --suffix X), else "~"."""
    suffix = "~"
    for i, a in enumerate(args):
        if a == "-S" and i + 1 < len(args):
            suffix = args[i + 1]
        elif a.startswith("-S") and not a.startswith("--"):
            suffix = a[2:]
        elif a.startswith("--su") and "--suffix".startswith(a.split("=", 1)[0]):
            suffix = a.split("=", 1)[1] if "=" in a else (args[i + 1] if i + 1 < len(args) else suffix)
    return suffix


def misplaced_backups(gnu, cpx, gnu_scene, suffix="~"):
    """Whether the only difference is GNU 9.1's bug with simple backups into another directory: the
    backups cpx makes beside the copies (NAME~ in D, or D/s0/NAME~) are in GNU's working directory
    instead (NAME~, or s0/NAME~ there: inside the source s0, which GNU then changed)."""
    if any(gnu[k] != cpx[k] for k in gnu if k not in ("tree", "sources unchanged")):
        return False
    g, c = set(gnu["tree"]), set(cpx["tree"])
    only_cpx, only_gnu = c - g, g - c
    if not only_cpx or not all(e[0].endswith("~") or e[0].endswith(suffix) for e in only_cpx):
        return False
    # Where GNU's misplaced backup is in the listed tree (inside a source), it is one of cpx's backups
    # moved: the same file, at a path that ends cpx's (D/s0/NAME~ there, s0/NAME~ in GNU's).
    moved = {e for e in only_gnu for b in only_cpx if e[1:] == b[1:] and b[0].endswith(os.sep + e[0])}
    if only_gnu - moved:
        return False
    misplaced = [os.path.join(gnu_scene, e[0]) for e in only_cpx]
    if not all(os.path.lexists(p) or os.path.lexists(os.path.join(gnu_scene, os.path.basename(p)))
               or any(p.endswith(os.sep + e[0]) for e in moved) for p in misplaced):
        return False
    # GNU's sources changed only where a misplaced backup went into one.
    return gnu["sources unchanged"] == cpx["sources unchanged"] or (
        cpx["sources unchanged"] and any(os.path.lexists(p) and os.sep in os.path.relpath(p, gnu_scene) for p in misplaced))


def parents_with_absolute_source(gnu, cpx, args):
    """Whether the only difference is GNU 9.1's bug with --parents, an absolute source and modes kept
    (-p, -a, --preserve=mode or all): GNU fails on the first directory of the source's path
    ("'tmp/...': No such file or directory", exit 1) and leaves the parents it made at 0700 (1700),
    where cpx copies and gives them their source's modes (docs/gnu-compatibility.md)."""
    if not any(len(a) >= 4 and ("--parents".startswith(a) or "--path".startswith(a)) for a in args):
        return False
    if not any(a.startswith("/") for a in args) or gnu["exit"] != 1 or cpx["exit"] not in (0, 1):
        return False
    if any(gnu[k] != cpx[k] for k in gnu if k not in ("exit", "stderr", "tree")):
        return False
    g, c = gnu["stderr"].strip("\n").split("\n"), [l for l in cpx["stderr"].strip("\n").split("\n") if l]
    extra = [l for l in g if l not in c]
    if sorted(l for l in g if l in c) != sorted(c) or len(extra) != 1 or not extra[0].endswith("': No such file or directory"):
        return False
    if cpx["exit"] != (1 if c else 0):
        return False
    gt, ct = set(gnu["tree"]), set(cpx["tree"])
    # The same entries; where they differ, directories whose mode GNU left at 0700 or 1700.
    return ({e[0] for e in gt} == {e[0] for e in ct}
            and all(e[1] == "0o40000" and e[2] in ("0o700", "0o1700") for e in gt - ct))


def plan_refused(gnu, cpx):
    """Whether the only difference is a plan's all or nothing: where cp fails for one operand or entry
    and copies the rest, the planner refuses the whole copy with one of cp's lines (exit 1) and
    makes nothing (docs/cluster.md)."""
    lines = [l for l in cpx["stderr"].split("\n") if l]
    return (gnu["exit"] == 1 and cpx["exit"] == 1 and len(lines) == 1 and lines[0] in gnu["stderr"].split("\n")
            and cpx["tree"] == cpx["destination before"] and cpx["sources unchanged"] and cpx["stdout"] == "")


def kept_as_complete(gnu, cpx):
    """Whether the only difference is files a plan's workers kept as complete by --resume's rule
    (same size, and at least as new as the source, the same time where times are kept) where cp
    overwrote them: files of the destination as they were before the copy (docs/cluster.md)."""
    if any(gnu[k] != cpx[k] for k in gnu if k != "tree"):
        return False
    g, c = set(gnu["tree"]), set(cpx["tree"])
    before = set(cpx["destination before"])
    return bool(c - g) and (c - g) <= before and {e[0] for e in c - g} == {e[0] for e in g - c}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cpx", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "cpx"))
    p.add_argument("--first", type=int, default=1)
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--work", default="/tmp/cp-random")
    p.add_argument("--keep", action="store_true", help="keep the scenes of mismatches")
    p.add_argument("--copies", action="store_true",
                   help="only cases that copy a tree (fewer spent on early refusals)")
    p.add_argument("--plan", action="store_true",
                   help="cpx copies by a plan (--plan, --work, --finish) with the options a plan takes")
    a = p.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    # The checkout's launcher builds on its first run after a change, and says so: not in a case.
    subprocess.run([os.path.abspath(a.cpx), "--version"], capture_output=True, check=True)
    mismatches = 0
    known = 0
    for seed in range(a.first, a.first + a.count):
        args, destination, gnu, cpx = case(seed, os.path.abspath(a.cpx), a.work, a.copies, a.plan)
        if gnu != cpx and misplaced_backups(gnu, cpx, os.path.join(a.work, str(seed), "gnu"), backup_suffix(args)):
            known += 1
            print(f"seed {seed}: cp {' '.join(args)}: GNU 9.1 put the simple backups in the working directory"
                  " (a 9.1 bug; cpx puts them beside the copies, README)")
        elif gnu != cpx and parents_with_absolute_source(gnu, cpx, args):
            known += 1
            print(f"seed {seed}: cp {' '.join(args)}: GNU 9.1 failed on --parents with an absolute source"
                  " and modes kept (a 9.1 bug, docs/gnu-compatibility.md)")
        elif gnu != cpx and a.plan and kept_as_complete(gnu, cpx):
            known += 1
            print(f"seed {seed}: cp {' '.join(args)}: the plan kept destination files complete by --resume's rule")
        elif gnu != cpx and a.plan and plan_refused(gnu, cpx):
            known += 1
            print(f"seed {seed}: cp {' '.join(args)}: the plan refused the copy at the first of cp's failures")
        elif gnu != cpx:
            mismatches += 1
            print(f"seed {seed}: cp {' '.join(args)}  (destination: {destination})")
            for key in gnu:
                if gnu[key] != cpx[key]:
                    if key == "tree":
                        g, c = set(gnu[key]), set(cpx[key])
                        print(f"  tree, GNU only: {sorted(g - c, key=repr)[:6]}\n  tree, cpx only: {sorted(c - g, key=repr)[:6]}")
                    else:
                        print(f"  {key}: GNU {gnu[key]!r}\n  {' ' * len(key)}  cpx {cpx[key]!r}")
        if gnu == cpx or not a.keep:
            shutil.rmtree(os.path.join(a.work, str(seed)), ignore_errors=True)
    print(f"{a.count} cases, {mismatches} mismatches" + (f", {known} known differences (GNU 9.1's, or a plan's)" if known else ""))
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
