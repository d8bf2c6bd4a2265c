#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when two files of the product code call each other: an object file that uses (nm: U) a
symbol another defines (T, D, B, R, ...) while that one uses a symbol the first defines. Such a pair
is one module cut in two; merge it, or move what both need into a third file they both call.

usage: check_calls.py [--nm NM] LIBRARY.a|OBJECT.o...
       (exit 0 no pair, 1 a pair, 2 usage or unreadable input)
"""
import subprocess
import sys


def symbols(nm, path):
    """[(object, type, symbol)] of the external symbols of an archive or object file."""
    p = subprocess.run([nm, "-A", "-g", path], capture_output=True, text=True)
    if p.returncode != 0:
        raise OSError(f"{path}: {nm} failed: {p.stderr.strip()}")
    out = []
    for line in p.stdout.splitlines():
        # "lib.a:obj.o:ADDR T sym", "lib.a:obj.o:         U sym" or "obj.o:ADDR T sym"
        fields = line.split()
        if len(fields) < 2:
            continue
        where, typ, sym = fields[0], fields[-2], fields[-1]
        parts = where.split(":")
        if path.endswith(".a") and len(parts) > 2:
            obj = parts[0].rsplit("/", 1)[-1] + ":" + parts[1]  # libdbt3_x.a:file.c.o
        else:
            obj = parts[0]
        if len(typ) == 1:
            out.append((obj, typ, sym))
    return out


def call_pairs(rows):
    """{(a, b): (symbols a uses of b, symbols b uses of a)} for every pair calling each other."""
    defined = {}
    for obj, typ, sym in rows:
        if typ != "U":
            defined.setdefault(sym, obj)
    uses = {}
    for obj, typ, sym in rows:
        other = defined.get(sym) if typ == "U" else None
        if other and other != obj:
            uses.setdefault((obj, other), set()).add(sym)
    return {(a, b): (sorted(s), sorted(uses[(b, a)]))
            for (a, b), s in uses.items() if a < b and (b, a) in uses}


def main(argv):
    nm = "nm"
    args = argv[1:]
    if len(args) >= 2 and args[0] == "--nm":
        nm, args = args[1], args[2:]
    if not args:
        print("usage: check_calls.py [--nm NM] LIBRARY.a|OBJECT.o...", file=sys.stderr)
        return 2
    rows = []
    try:
        for path in args:
            rows += symbols(nm, path)
    except OSError as e:
        print(e)
        return 2
    objects = {obj for obj, _, _ in rows}
    if not objects:
        print("no object files in " + " ".join(args))
        return 2
    pairs = call_pairs(rows)
    for (a, b), (ab, ba) in sorted(pairs.items()):
        print(f"{a} and {b} call each other: {a} uses {', '.join(ab[:4])}; "
              f"{b} uses {', '.join(ba[:4])}")
    if pairs:
        print(f"{len(pairs)} pair(s) of files calling each other in {len(objects)} object files")
        return 1
    print(f"no pair of files calling each other in {len(objects)} object files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
