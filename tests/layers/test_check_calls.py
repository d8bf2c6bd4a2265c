#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Self-test of check_calls.py: small C files compiled and archived in a temp dir, each case with
the exit code and the line the checker must print. The edge fixtures: a.c calling b.c and b.c
calling a.c fails; a chain a -> b -> c, and a.c and b.c both calling c.c, pass.

usage: test_check_calls.py CC AR NM
"""
import os
import subprocess
import sys
import tempfile

from selftest import judge

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, {file: C text}, archives {name: [files]} (None: the objects themselves), exit code, line)
CASES = [
    ("two files calling each other fail",
     {"a.c": "int b_f(void);\nint a_f(void) { return b_f(); }\nint a_g(void) { return 1; }\n",
      "b.c": "int a_g(void);\nint b_f(void) { return a_g(); }\n"},
     {"libx.a": ["a", "b"]}, 1,
     "libx.a:a.c.o and libx.a:b.c.o call each other: libx.a:a.c.o uses b_f; libx.a:b.c.o uses a_g"),
    ("a pair across two archives fails too",
     {"a.c": "int b_f(void);\nint a_f(void) { return b_f(); }\n",
      "b.c": "int a_f(void);\nint b_f(void) { return 0; }\nint b_g(void) { return a_f(); }\n"},
     {"liba.a": ["a"], "libb.a": ["b"]}, 1, "liba.a:a.c.o and libb.a:b.c.o call each other"),
    ("a pair by data (a global) fails",
     {"a.c": "extern int b_v;\nint a_v = 1;\nint a_f(void) { return b_v; }\n",
      "b.c": "extern int a_v;\nint b_v = 2;\nint b_f(void) { return a_v; }\n"},
     {"libx.a": ["a", "b"]}, 1, "call each other"),
    ("plain objects are read as well",
     {"a.c": "int b_f(void);\nint a_f(void) { return b_f(); }\n",
      "b.c": "int a_f(void);\nint b_f(void) { return a_f(); }\n"},
     None, 1, "a.c.o and b.c.o call each other"),
    ("a chain passes",
     {"a.c": "int b_f(void);\nint a_f(void) { return b_f(); }\n",
      "b.c": "int c_f(void);\nint b_f(void) { return c_f(); }\n",
      "c.c": "int c_f(void) { return 0; }\n"},
     {"libx.a": ["a", "b", "c"]}, 0, "no pair of files calling each other in 3 object files"),
    ("two files calling a third pass",
     {"a.c": "int c_f(void);\nint a_f(void) { return c_f(); }\n",
      "b.c": "int c_f(void);\nint b_f(void) { return c_f(); }\n",
      "c.c": "int c_f(void) { return 0; }\n"},
     {"libx.a": ["a", "b", "c"]}, 0, "no pair of files calling each other"),
    ("a file calling itself passes",
     {"a.c": "int a_g(void) { return 0; }\nint a_f(void) { return a_g(); }\n"},
     {"libx.a": ["a"]}, 0, "no pair of files calling each other in 1 object files"),
    ("an archive without objects is a usage error", {}, {"libx.a": []}, 2, "no object files"),
]


def run_case(cc, ar, nm, files, archives, tmp):
    objs = {}
    for name, text in files.items():
        src = os.path.join(tmp, name)
        with open(src, "w", encoding="utf-8") as f:
            f.write(text)
        obj = os.path.join(tmp, name + ".o")
        subprocess.run([cc, "-c", "-o", obj, src], check=True)
        objs[name[:-2]] = obj
    inputs = []
    if archives is None:
        inputs = [objs[k] for k in sorted(objs)]
    for lib, members in (archives or {}).items():
        path = os.path.join(tmp, lib)
        if members:
            subprocess.run([ar, "qc", path] + [objs[m] for m in members], check=True)
        else:  # an empty archive
            with open(path, "wb") as f:
                f.write(b"!<arch>\n")
        inputs.append(path)
    p = subprocess.run([sys.executable, os.path.join(HERE, "check_calls.py"), "--nm", nm] + inputs,
                       capture_output=True, text=True, cwd=tmp)
    out = (p.stdout + p.stderr).replace(tmp + "/", "")
    return p.returncode, out


def main(argv):
    if len(argv) != 4:
        print("usage: test_check_calls.py CC AR NM", file=sys.stderr)
        return 2
    cc, ar, nm = argv[1:]

    def run(case):
        with tempfile.TemporaryDirectory() as tmp:
            return run_case(cc, ar, nm, case[1], case[2], tmp)

    return judge(CASES, run)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
