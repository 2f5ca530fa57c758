#!/usr/bin/env python3
"""Deterministic generated datasets for the cpx benchmarks.

    gendata.py tree  DEST --files N --sizes tiny|source --seed S
    gendata.py flat  DEST --files N --seed S
    gendata.py big   DEST --count N --size BYTES --seed S
    gendata.py sparse DEST --size BYTES --extents N --extent-size BYTES --seed S

Every choice (directory shape, names, sizes, contents, creation order) comes from one seeded
random.Random, so the same arguments make the same tree on every machine. DEST must not exist.
"""

import argparse
import math
import os
import random
import sys

EXTENSIONS = [".c", ".h", ".go", ".rs", ".py", ".txt", ".md", ".json", ".java", ".S", ".yaml", ""]
SYLLABLES = ["ab", "ac", "al", "ar", "at", "be", "co", "de", "di", "el", "en", "er", "ex", "fi", "fo", "ge",
             "in", "io", "ka", "le", "li", "ma", "mi", "ne", "no", "or", "pa", "pe", "po", "ra", "re", "ri",
             "sa", "se", "si", "st", "ta", "te", "ti", "to", "un", "ur", "va", "ve", "xy", "zo"]


def name(rng, used, ext=""):
    """A plausible, unique (within `used`) file or directory name."""
    while True:
        n = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 5)))
        if rng.random() < 0.3:
            n += "_" + "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 3)))
        n += ext
        if n not in used:
            used.add(n)
            return n


def file_size(rng, sizes):
    if sizes == "tiny":
        return rng.randint(0, 4096)
    # "source": log-normal around 3 KiB like a source tree, a few large files, capped at 1 MiB.
    return min(1 << 20, int(math.exp(rng.gauss(math.log(3000), 1.3))))


def write_file(path, size, rng):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        if size:
            data = rng.randbytes(size)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def tree(dest, files, sizes, seed):
    """`files` files in a source-tree shape: ~12 files per directory (log-normal spread), directories
    nested up to 10 deep with a preference for recent ones, so some are deep and some are wide."""
    rng = random.Random(seed)
    ndirs = max(1, files // 12)
    dirs = [("", 0)]  # (relative path, depth)
    names = {"": set()}
    for _ in range(ndirs - 1):
        # Prefer recently made directories (deep chains), sometimes any (wide fan-out).
        if rng.random() < 0.6:
            parent, depth = dirs[max(0, len(dirs) - 1 - int(rng.expovariate(0.3)))]
        else:
            parent, depth = rng.choice(dirs)
        if depth >= 10:
            parent, depth = rng.choice(dirs[: max(1, len(dirs) // 2)])
            if depth >= 10:
                parent, depth = "", 0
        child = os.path.join(parent, name(rng, names[parent]))
        names[child] = set()
        dirs.append((child, depth + 1))
    weights = [math.exp(rng.gauss(0, 1)) for _ in dirs]
    owners = rng.choices(range(len(dirs)), weights=weights, k=files)
    os.makedirs(dest)
    for d, _ in dirs[1:]:
        os.mkdir(os.path.join(dest, d))
    for i in owners:
        d = dirs[i][0]
        f = name(rng, names[d], rng.choice(EXTENSIONS))
        write_file(os.path.join(dest, d, f), file_size(rng, sizes), rng)


def flat(dest, files, seed):
    """One directory of `files` tiny files (0-4 KiB), created in a shuffled order."""
    rng = random.Random(seed)
    order = list(range(files))
    rng.shuffle(order)
    os.makedirs(dest)
    for i in order:
        write_file(os.path.join(dest, "f%07d.dat" % i), rng.randint(0, 4096), rng)


def big(dest, count, size, seed):
    """`count` dense files of `size` bytes of random data."""
    rng = random.Random(seed)
    chunk = rng.randbytes(16 << 20)
    os.makedirs(dest)
    for i in range(count):
        fd = os.open(os.path.join(dest, "big%d.bin" % i), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            left = size
            while left:
                # A fresh prefix per chunk so no two chunks (and no two files) are equal.
                piece = rng.randbytes(4096) + chunk[4096:min(len(chunk), left)]
                piece = piece[:left]
                view = memoryview(piece)
                while view:
                    view = view[os.write(fd, view):]
                left -= len(piece)
        finally:
            os.close(fd)


def sparse(dest, size, extents, extent_size, seed):
    """One file of apparent `size` with `extents` data extents of `extent_size` bytes at seeded,
    block-aligned offsets and holes everywhere else, including at the end."""
    rng = random.Random(seed)
    slots = (size - extent_size) // extent_size  # the last slot stays a hole
    offsets = sorted(rng.sample(range(slots), extents))
    os.makedirs(dest)
    fd = os.open(os.path.join(dest, "sparse.img"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        for slot in offsets:
            data = rng.randbytes(extent_size)
            os.pwrite(fd, data, slot * extent_size)
        os.ftruncate(fd, size)
    finally:
        os.close(fd)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kind", choices=["tree", "flat", "big", "sparse"])
    p.add_argument("dest")
    p.add_argument("--files", type=int, default=1000)
    p.add_argument("--sizes", choices=["tiny", "source"], default="tiny")
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--size", type=int, default=1 << 30)
    p.add_argument("--extents", type=int, default=64)
    p.add_argument("--extent-size", type=int, default=4 << 20)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    if os.path.lexists(a.dest):
        sys.exit("gendata.py: %s exists" % a.dest)
    if a.kind == "tree":
        tree(a.dest, a.files, a.sizes, a.seed)
    elif a.kind == "flat":
        flat(a.dest, a.files, a.seed)
    elif a.kind == "big":
        big(a.dest, a.count, a.size, a.seed)
    else:
        sparse(a.dest, a.size, a.extents, a.extent_size, a.seed)


if __name__ == "__main__":
    main()
