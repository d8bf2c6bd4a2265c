#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when a function of the product code is over 100 lines, counted from the first line of its
definition to its closing brace, or a .c file of it is over 1000 lines (dbt3/gen*.c excepted: the
generator's tables and hot loops). Product code is what check_layers.py checks (the folders the
top-level CMakeLists.txt adds, tests/ excepted); the generator's hot loops listed in ALLOWED may be
longer, and an entry there that is no longer over the limit fails too, so the list stays true.

usage: check_fn_length.py ROOT    (exit 0 clean, 1 a function or file too long, 2 usage or unreadable
tree)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_layers import product_sources  # noqa: E402  (one definition of "product code")

MAX_LINES = 100
MAX_FILE_LINES = 1000
# Files that may be longer: the generator's (its distribution tables and hot loops).
FILE_ALLOWED = re.compile(r"dbt3/gen[^/]*\.c$")

# (file, function): why it may be longer. Only the generator's hot loops, kept whole so that one
# call makes a row (or an order with its lineitems) without helper calls between the draws.
ALLOWED = {
    ("dbt3/gen.c", "order_unit"):
        "one order and its 1-7 lineitems per call, the draws in dbgen's order (mk_order)",
}

NOT_A_NAME = {"if", "for", "while", "switch", "return", "sizeof", "__attribute__", "defined"}
# __attribute__((...)) with one level of parentheses inside, e.g. ((format(printf, 2, 3)))
ATTRIBUTE = re.compile(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)")


# A comment, or a string or character literal (an unterminated one ends at the end of its line).
LITERAL = re.compile(r"/\*.*?(?:\*/|\Z)|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"?|'(?:\\.|[^'\\\n])*'?", re.S)


def blank_code(text):
    """text with comments, string and character literals and preprocessor lines replaced by
    spaces (a literal keeps its quotes); newlines stay, so positions keep their line numbers."""
    def blank(m):
        s = m.group(0)
        if s[0] in "\"'":
            closed = len(s) > 1 and s[-1] == s[0]
            inner = s[1:-1] if closed else s[1:]
            return s[0] + re.sub(r"[^\n]", " ", inner) + (s[0] if closed else "")
        return re.sub(r"[^\n]", " ", s)

    lines = LITERAL.sub(blank, text).split("\n")
    in_directive = False
    for k, line in enumerate(lines):
        if in_directive or line.lstrip().startswith("#"):
            in_directive = line.rstrip().endswith("\\")
            lines[k] = " " * len(line)
    return "\n".join(lines)


def functions(text):
    """(name, first line, last line) of every function defined at the top level of C text."""
    code = blank_code(text)
    found = []
    depth = 0
    head_start = 0  # where the text before the next top-level brace begins
    body = None  # (name, first line) of the function whose body is open
    for m in re.finditer(r"[{};]", code):
        ch, i = m.group(0), m.start()
        if ch == "{":
            if depth == 0:
                head = code[head_start:i]
                body = None
                if head.rstrip().endswith(")") and "=" not in head:
                    first = head_start + len(head) - len(head.lstrip())
                    bare = ATTRIBUTE.sub(" ", head)
                    names = [w for w in re.findall(r"(\w+)\s*\(", bare) if w not in NOT_A_NAME]
                    body = (names[0] if names else "?", code.count("\n", 0, first) + 1)
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                if body:
                    found.append((body[0], body[1], code.count("\n", 0, i) + 1))
                body = None
                head_start = i + 1
        elif ch == ";" and depth == 0:
            head_start = i + 1
    return found


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: check_fn_length.py ROOT", file=sys.stderr)
        return 2
    root = argv[1]
    problems, allowed_seen, nfiles, nfuncs = [], {}, 0, 0
    try:
        sources = list(product_sources(root))
    except OSError as e:
        print(f"{root}: {e}")
        return 2
    for rel in sources:
        try:
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as e:
            print(f"{rel}: {e.strerror}")
            return 2
        nfiles += 1
        nlines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if rel.endswith(".c") and nlines > MAX_FILE_LINES and not FILE_ALLOWED.match(rel):
            problems.append(f"{rel}: {nlines} lines (at most {MAX_FILE_LINES} in a .c file): split it "
                            "at its seams, a private header for what the parts share")
        for name, first, last in functions(text):
            nfuncs += 1
            lines = last - first + 1
            if (rel, name) in ALLOWED:
                allowed_seen[(rel, name)] = lines
            if lines > MAX_LINES and (rel, name) not in ALLOWED:
                problems.append(f"{rel}:{first}: {name} is {lines} lines (at most {MAX_LINES}): split it "
                                "where it mixes parsing, orchestration and work")
    present = set(sources)
    for (rel, name), why in ALLOWED.items():
        if rel in present and allowed_seen.get((rel, name), 0) <= MAX_LINES:
            problems.append(f"{rel}: {name} is listed as allowed over {MAX_LINES} lines ({why}) but is "
                            "not: remove it from ALLOWED in tests/layers/check_fn_length.py")
    if nfiles == 0:
        print(f"{root}: no C sources in the folders of its CMakeLists.txt")
        return 2
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} length problem(s) in {nfiles} files")
        return 1
    longer = ", ".join(f"{rel} {name} ({n})" for (rel, name), n in sorted(allowed_seen.items()))
    print(f"functions within {MAX_LINES} lines: {nfuncs} in {nfiles} files, .c files within "
          f"{MAX_FILE_LINES} lines"
          + (f"; allowed longer: {longer}" if longer else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
