#!/usr/bin/env python3
"""Ordered pairs of options: cpx against GNU cp, each pair in both orders, over an earlier copy.

For every ordered pair (A, B) of the option words below (overwriting, backups, links, attributes,
dereferencing, preserving...), `cp -r A B s D` runs in twin scenes, /usr/bin/cp in one and cpx in
the other (each called `cp`, so their messages name the same program): a source tree `s` (a file,
a second name of it, a symbolic link, a subdirectory) copied into `D`, which holds an older copy
(older files, a numbered backup, a file where the source has its link). Compared: exit status,
stdout and stderr (as sets of lines: the order across directories is documented as different), the
destination tree and the source tree (types, modes, contents, link counts, whether times were kept).
Prompts (-i) are answered "y" each, so the order they come in does not decide the outcome (each
scene has its own inode numbers, hence its own order).

Counted apart, as cp-random.py does: GNU 9.1's simple backups put beside the source rather than in
D (a 9.1 bug; docs/gnu-compatibility.md), and what follows from it (its "cannot un-backup").

    compat/random/cp-pairs.py [--cpx ./cpx] [--work /tmp/cp-pairs] [--keep] [--user NAME]

Run as root; 1,056 pairs take about twenty minutes. --user runs both programs as that unprivileged
user (setpriv, its own groups cleared) in scenes it owns, as a user copying their own files
(cpx-cli's tests make the user cpxtest): owners then cannot be kept, and what GNU does about it
(silence for -p and -a, a failure for --preserve=all) is compared too.
"""
import argparse
import hashlib
import itertools
import os
import pwd
import shutil
import stat
import subprocess

WORDS = [["-n"], ["-i"], ["-f"], ["-u"], ["--remove-destination"], ["-b"], ["--backup=numbered"],
         ["--backup=simple"], ["--backup=none"], ["-S", ".x"], ["-l"], ["-s"], ["--attributes-only"],
         ["-L"], ["-P"], ["-H"], ["-d"], ["-p"], ["-a"], ["--preserve=mode"], ["--no-preserve=mode"],
         ["--preserve=all"], ["--no-preserve=all"], ["--preserve=links"], ["--no-preserve=links"],
         ["-x"], ["-v"], ["--reflink=never"], ["--sparse=always"], ["-T"], ["--parents"], ["--copy-contents"],
         ["--strip-trailing-slashes"]]
OLD, SOURCE = 1262304000, 1300000000


def scene(root):
    os.makedirs(os.path.join(root, "s/sub"))
    write(root, "s/f", "new f\n", SOURCE)
    os.chmod(os.path.join(root, "s/f"), 0o640)
    os.link(os.path.join(root, "s/f"), os.path.join(root, "s/h"))
    os.symlink("f", os.path.join(root, "s/l"))
    write(root, "s/sub/g", "new g\n", SOURCE)
    os.makedirs(os.path.join(root, "D/s/sub"))
    for name in ("f", "f.~1~", "l", "sub/g"):
        write(root, "D/s/" + name, "old " + name + "\n", OLD)


def write(root, name, text, when):
    path = os.path.join(root, name)
    with open(path, "w") as f:
        f.write(text)
    os.utime(path, (when, when))


def snapshot(root):
    out = []
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        for n in sorted(dirs + files):
            p = os.path.join(dirpath, n)
            st = os.lstat(p)
            kind = stat.S_IFMT(st.st_mode)
            body = ""
            if stat.S_ISREG(st.st_mode):
                with open(p, "rb") as f:
                    body = hashlib.md5(f.read()).hexdigest()[:8]
            elif stat.S_ISLNK(st.st_mode):
                body = os.readlink(p)
            kept = int(st.st_mtime) if int(st.st_mtime) in (OLD, SOURCE) else "new"
            out.append((os.path.relpath(p, root), oct(kind), oct(stat.S_IMODE(st.st_mode)), body,
                        0 if kind == stat.S_IFDIR else st.st_nlink, kept))
    return out


def run(program_dir, root, args, user=None):
    env = dict(os.environ, LC_ALL="C", PATH=program_dir + ":" + os.environ["PATH"])
    for name in ("VERSION_CONTROL", "SIMPLE_BACKUP_SUFFIX", "POSIXLY_CORRECT"):
        env.pop(name, None)
    command = ["cp"] + args
    if user:
        command = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups"] + command
        env["HOME"] = os.path.join(os.path.dirname(os.path.dirname(root)), "home")
    p = subprocess.run(command, cwd=root, input="y\n" * 20, capture_output=True, text=True, env=env, timeout=120)
    return (p.returncode, sorted(p.stdout.splitlines()), sorted(p.stderr.replace("? ", "?\n").splitlines()),
            snapshot(os.path.join(root, "D")), snapshot(os.path.join(root, "s")))


def misplaced_backups(gnu, cpx):
    """GNU 9.1's simple backups beside the source (s/NAME~, from the working directory) instead of in D/s."""
    gd, cd, gs, cs = set(gnu[3]), set(cpx[3]), set(gnu[4]), set(cpx[4])
    if gd - cd or cs - gs or not cd - gd or not all(e[0].startswith("s/") for e in cd - gd):
        return False
    # Where GNU then could not make the link, it could not put the backup back either ("cannot
    # un-backup"): the old file is missing from its D, and is in s as NAME~. Else the backups cpx
    # made beside the copies (D/s/NAME~ or NAME.x) are in GNU's s under the same names.
    unbackup = [l for l in gnu[2] if "cannot un-backup" in l]
    moved = {((e[0][2:] + "~") if unbackup else e[0][2:],) + e[1:] for e in cd - gd}
    return (moved == gs - cs and gnu[:2] == cpx[:2]
            and sorted(l for l in gnu[2] if l not in unbackup) == cpx[2])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cpx", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "cpx"))
    p.add_argument("--work", default="/tmp/cp-pairs")
    p.add_argument("--keep", action="store_true", help="keep the scenes of differences")
    p.add_argument("--user", help="run both programs as this unprivileged user, in scenes it owns")
    a = p.parse_args()
    user = pwd.getpwnam(a.user) if a.user else None
    shutil.rmtree(a.work, ignore_errors=True)
    programs = {"gnu": os.path.join(a.work, "bin-gnu"), "cpx": os.path.join(a.work, "bin-cpx")}
    os.makedirs(programs["gnu"])
    os.makedirs(programs["cpx"])
    os.symlink("/usr/bin/cp", os.path.join(programs["gnu"], "cp"))
    os.symlink(os.path.abspath(a.cpx), os.path.join(programs["cpx"], "cp"))
    if user:
        os.makedirs(os.path.join(a.work, "home"))
        os.chown(os.path.join(a.work, "home"), user.pw_uid, user.pw_gid)
    # The checkout's launcher builds on its first run after a change, and says so: not in a case.
    subprocess.run([os.path.abspath(a.cpx), "--version"], capture_output=True, check=True)
    differ = known = n = 0
    for first, second in itertools.permutations(WORDS, 2):
        args = ["-r"] + first + second + ["s", "D"]
        results = {}
        for label in ("gnu", "cpx"):
            root = os.path.join(a.work, str(n), label)
            os.makedirs(root)
            scene(root)
            if user:
                subprocess.run(["chown", "-R", "-h", f"{user.pw_uid}:{user.pw_gid}", root], check=True)
            results[label] = run(programs[label], root, args, user)
        gnu, cpx = results["gnu"], results["cpx"]
        if gnu != cpx and misplaced_backups(gnu, cpx):
            known += 1
        elif gnu != cpx:
            differ += 1
            print("cp " + " ".join(args))
            for k, name in enumerate(("exit", "stdout", "stderr", "D", "s")):
                if gnu[k] != cpx[k]:
                    if k >= 3:
                        g, c = set(gnu[k]), set(cpx[k])
                        print(f"  {name}: GNU only {sorted(g - c)[:5]}\n  {' ' * len(name)}  cpx only {sorted(c - g)[:5]}")
                    else:
                        print(f"  {name}: GNU {gnu[k]!r}\n  {' ' * len(name)}  cpx {cpx[k]!r}")
        if gnu == cpx or not a.keep:
            shutil.rmtree(os.path.join(a.work, str(n)))
        n += 1
    print(f"{n} pairs, {differ} differ" + (f", {known} by GNU 9.1's misplaced simple backups" if known else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
