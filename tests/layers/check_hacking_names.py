#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when HACKING.md names in backquotes something the tree does not have.

Every `span` of HACKING.md is one of:
- a path: it has a '/' or ends in a file extension (`base/util.h`, `run_measure.c`, `_db.c`,
  `runner/run*.{c,h}`, `tests/test_<module>.c`). It must match a file or folder of the tree: a
  bare name anywhere in it, a suffix as the end of a name; `<x>`, `*` and an upper-case word
  (NAME, DIR) stand for any part. Paths outside the tree (absolute, `../`, `build*/`, `DIR/`, one
  with `$`) and those .gitignore names (`/results/`) are not checked.
- a command line: it starts with `dbt3stab` or one of its commands (`run --side-by-side`,
  `history check`), or with `scripts/`, `build/`, `cmake`, `nice`, or is options alone (`-s SF`). A dbt3stab command must be
  in commands/cmd_table.c; each `--option` must be one the tool declares (a string "option" in
  commands/ or base/); a `-DNAME=` must be a CMake option of the tree (CMAKE_* excepted); a
  repository path in it must exist.
- code: anything else. Each identifier in it must be found by a word search in the sources
  (the product folders, tests/, scripts/, .ci/, the CMakeLists.txt files): C names, struct
  members, ctest names and labels. `struct x` and `x()`, `x[]`, `a.b` are read as their names;
  `_SUFFIX` (after `CLI_ROW_FLAG`) must end some identifier, and `name/_suffix` names a sibling
  (`cli_parse_long/_double`: cli_parse_double). Words inside `<...>` are placeholders.

usage: check_hacking_names.py ROOT   (exit 0 all found, 1 a name not found, 2 usage or no HACKING.md)
"""
import fnmatch
import os
import re
import sys

SPAN = re.compile(r"`([^`\n]+(?:\n[^`\n]+)?)`")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
EXT = re.compile(r"\.(c|h|py|sh|md|json|txt|output|cnf|inc|csv|tsv|gz|xml|png|cmake)$")
SOURCE_EXT = (".c", ".h", ".py", ".sh", ".txt", ".cmake", ".in", ".output")
SKIP_DIRS = {".git", "build", "node_modules"}
COMMAND_PREFIXES = ("scripts/", "build/", "build-", "cmake ", "nice ", "ctest ", "dbt3stab ")
# words of code spans that are C or shell syntax, not names the tree defines
KEYWORDS = {"struct", "enum", "int", "char", "void", "const", "static", "volatile", "return",
            "sizeof", "unsigned", "long", "double", "NULL", "w"}


def tree_files(root):
    """Every file of the tree as a path relative to root, build folders and .git left out."""
    for dirpath, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("build"))
        for n in sorted(names):
            yield os.path.relpath(os.path.join(dirpath, n), root).replace(os.sep, "/")


def source_words(root, files):
    """The set of identifiers in the sources: C, Python, shell and CMake files."""
    words = set()
    for rel in files:
        base = os.path.basename(rel)
        if not (rel.endswith(SOURCE_EXT) or base in ("CMakeLists.txt",) or
                rel.startswith(("scripts/", ".ci/"))):
            continue
        if rel.startswith("bench/") or rel.startswith("docs/"):
            continue
        try:
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                words.update(IDENT.findall(f.read()))
        except OSError:
            continue
    return words


def option_names(root, files):
    """The long options the tool declares: string literals of commands/ and base/."""
    names = set()
    for rel in files:
        if rel.startswith(("commands/", "base/")) and rel.endswith((".c", ".h")):
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                names.update(re.findall(r'"([a-z][a-z0-9-]*)"', f.read()))
    return names


def command_names(root):
    """The dbt3stab commands: the first string of each row of commands/cmd_table.c."""
    path = os.path.join(root, "commands", "cmd_table.c")
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as f:
        return set(re.findall(r'\{\s*"([a-z][a-z-]*)"\s*,', f.read()))


def expand_braces(pattern):
    m = re.search(r"\{([^{}]*)\}", pattern)
    if not m:
        return [pattern]
    out = []
    for alt in m.group(1).split(","):
        out.extend(expand_braces(pattern[:m.start()] + alt + pattern[m.end():]))
    return out


def path_glob(span):
    """The glob a path span stands for, or None when it lies outside the tree."""
    p = span.strip()
    if p.startswith(("/", "../", "~", "build")) or "$" in p:
        return None
    first = p.split("/")[0]
    if "/" in p and re.fullmatch(r"[A-Z][A-Z0-9_]*", first):
        return None  # DIR/client.cnf: a directory the user names
    p = re.sub(r"<[^>]*>", "*", p)
    p = "/".join("*" if re.fullmatch(r"[A-Z][A-Z0-9_]+", part) else
                 re.sub(r"^[A-Z][A-Z0-9_]+(?=\.)", "*", part) for part in p.split("/"))
    return p.rstrip("/")


def ignored(root):
    """The paths .gitignore names (where runs write their output): they exist only after a run."""
    try:
        with open(os.path.join(root, ".gitignore"), encoding="utf-8") as f:
            return {ln.strip().strip("/") for ln in f if ln.strip() and not ln.startswith("#")}
    except OSError:
        return set()


def path_exists(span, files, dirs, gitignored=frozenset()):
    glob = path_glob(span)
    if glob is None or span.strip().strip("/") in gitignored:
        return True
    for g in expand_braces(glob):
        if "/" in g:
            pats = [g]
        elif g.startswith(("_", "*")):
            pats = ["*" + g, "*/*" + g]
        else:
            pats = [g, "*/" + g]
        for pat in pats:
            if any(fnmatch.fnmatchcase(f, pat) for f in files) or \
               any(fnmatch.fnmatchcase(d, pat) for d in dirs):
                return True
    return False


def is_path(span):
    s = span.strip()
    if " " in s or "\n" in s:
        return False
    if re.fullmatch(r"[A-Za-z_]\w*(/_\w+)+", s):
        return False  # cli_parse_long/_double, _init/_release/_free: names, not paths
    return "/" in s or bool(EXT.search(s))


def is_command(span, commands):
    s = " ".join(span.split())
    if s.startswith(COMMAND_PREFIXES) or re.match(r"-{1,2}[A-Za-z]", s):
        return True
    return " " in s and s.split(" ")[0] in commands


def check_command(span, commands, options, words, files, dirs):
    """What is wrong in a command line, or []."""
    problems = []
    tokens = span.split()
    tool = tokens[0] == "dbt3stab" or tokens[0] in commands
    if tokens[0] == "dbt3stab" and len(tokens) > 1 and not tokens[1].startswith("-"):
        if tokens[1] not in commands:
            problems.append(f"'{tokens[1]}' is no dbt3stab command")
    for t in tokens:
        if t.startswith("--") and (tool or re.match(r"-{1,2}[A-Za-z]", tokens[0])):
            name = t[2:].split("=")[0].strip("[]")
            if name and name not in options:
                problems.append(f"option '--{name}' is not one dbt3stab declares")
        elif t.startswith("-D"):
            name = t[2:].split("=")[0]
            if not name.startswith("CMAKE_") and name not in words:
                problems.append(f"CMake option '{name}' is not in the tree")
        elif "/" in t and not t.startswith("-") and path_glob(t) is not None and \
                t.split("/")[0] in dirs and not path_exists(t, files, dirs):
            problems.append(f"path '{t}' does not exist")
    return problems


def check_code(span, words):
    """What is wrong in a code span, or []."""
    s = re.sub(r"<[^>]*>", "", span)  # placeholders: cmd_<name> -> cmd_
    s = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'', "", s)  # string literals
    problems = []
    m = re.fullmatch(r"\s*([A-Za-z_]\w*)((?:/_\w+)+)\s*", s)
    if m:  # a name and siblings: cli_parse_long/_double
        stem = m.group(1)
        for suffix in m.group(2).split("/")[1:]:
            if stem.startswith("_"):
                ok = any(w.endswith(suffix) for w in words)
                name = "*" + suffix
            else:
                name = stem.rsplit("_", 1)[0] + suffix
                ok = name in words
            if not ok:
                problems.append(f"'{name}' is not in the sources")
        if stem.startswith("_"):
            if not any(w.endswith(stem) for w in words):
                problems.append(f"no name ends in '{stem}'")
        elif stem not in words:
            problems.append(f"'{stem}' is not in the sources")
        return problems
    for word in IDENT.findall(s):
        if word in KEYWORDS:
            continue
        if word.startswith("_") and span.strip().startswith("_"):
            if not any(w.endswith(word) and w != word for w in words) and word not in words:
                problems.append(f"no name ends in '{word}'")
        elif word.endswith("_"):
            if not any(w.startswith(word) for w in words):
                problems.append(f"no name starts with '{word}'")
        elif word not in words:
            problems.append(f"'{word}' is not in the sources")
    return problems


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    root = argv[1]
    hacking = os.path.join(root, "HACKING.md")
    try:
        with open(hacking, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        print(f"cannot read '{hacking}': {e.strerror}", file=sys.stderr)
        return 2
    text = re.sub(r"^```.*?^```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S | re.M)
    files = list(tree_files(root))
    dirs = sorted({os.path.dirname(f) for f in files} |
                  {"/".join(f.split("/")[:i]) for f in files for i in range(1, f.count("/") + 1)})
    words = source_words(root, files)
    options = option_names(root, files)
    commands = command_names(root)
    gitignored = ignored(root)
    problems, spans = [], 0
    for m in SPAN.finditer(text):
        span = m.group(1)
        line = text.count("\n", 0, m.start()) + 1
        spans += 1
        if is_path(span):
            found = [] if path_exists(span, files, dirs, gitignored) else [f"no file or folder '{span}'"]
        elif is_command(span, commands):
            found = check_command(span, commands, options, words, files, dirs)
        else:
            found = check_code(span, words)
        for p in found:
            problems.append(f"HACKING.md:{line}: `{' '.join(span.split())}`: {p}")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} name(s) in HACKING.md not in the tree")
        return 1
    print(f"HACKING.md names only what exists: {spans} backquoted spans")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
