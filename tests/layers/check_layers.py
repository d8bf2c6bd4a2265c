#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when product code includes a header of a layer above its own, when a CMake library
does not link exactly the layers its sources include, or when a file outside base/ makes a call
only base/ makes (signal handlers: base/sigchain.c). The table below is the one in HACKING.md.

usage: check_layers.py ROOT    (exit 0 clean, 1 violations, 2 usage or unreadable tree)
"""
import fnmatch
import os
import re
import sys

# (layer, rank, CMake library, path patterns relative to ROOT). A file may include headers of its
# own layer and of layers with a lower rank; layers of equal rank (the work modules) are siblings
# and do not include each other. runner/ holds the protocol; commands/ the commands.
LAYERS = [
    ("base", 0, "dbt3_base", ["base/*"]),
    ("result", 1, "dbt3_result", ["result/*"]),
    ("server", 2, "dbt3_server", ["server/*"]),
    ("dbt3", 3, "dbt3_data", ["dbt3/*"]),
    ("stats", 3, "dbt3_stats", ["stats/*"]),
    ("pinning", 3, "dbt3_pin", ["pinning/*"]),
    # history/ is a work module that uses stats/ (its tests), so it ranks between them and the protocol
    ("history", 3.5, "dbt3_history", ["history/*"]),
    ("protocol", 4, "dbt3_protocol", ["runner/run*"]),
    ("reports", 5, "dbt3_reports", ["reports/*"]),
    ("commands", 6, "dbt3_commands", ["commands/*"]),
]
RANK = {name: rank for name, rank, _, _ in LAYERS}
LIBRARY = {name: lib for name, _, lib, _ in LAYERS}
# Product code is what the top-level CMakeLists.txt adds with add_subdirectory, except these.
NOT_PRODUCT = {"tests"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
# Calls only base/ makes, outside comments and strings: the signal handlers are one module,
# base/sigchain.c (git's sigchain.c), so nobody else calls sigaction() or signal().
BASE_ONLY = re.compile(r"\b(sigaction|signal)\b\s*\(|\bstruct\s+(sigaction)\b")
COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
LINK = re.compile(r"target_link_libraries\(\s*(\w+)\s+(?:PUBLIC|PRIVATE|INTERFACE)?([^)]*)\)", re.S)


def layer_of(rel):
    """The layer a path (relative to the root, '/'-separated) belongs to, or None."""
    for name, _, _, patterns in LAYERS:
        for p in patterns:
            # fnmatch's * crosses '/': a pattern 'base/*' matches every file under base/.
            if fnmatch.fnmatchcase(rel, p):
                return name
    return None


def product_folders(root):
    """The folders the top-level CMakeLists.txt adds with add_subdirectory, except tests/."""
    with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as f:
        text = re.sub(r"#[^\n]*", "", f.read())
    return [d for d in re.findall(r"add_subdirectory\(\s*([\w./-]+)", text) if d not in NOT_PRODUCT]


def product_sources(root):
    for top in product_folders(root):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for n in sorted(names):
                if n.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(dirpath, n), root).replace(os.sep, "/")


def check_includes(root, problems):
    """Returns {layer: set of other layers its files include}, appending violations."""
    uses = {name: set() for name in RANK}
    for rel in product_sources(root):
        own = layer_of(rel)
        if own is None:
            problems.append(f"{rel}: in no layer (add its folder or prefix to tests/layers/check_layers.py and HACKING.md)")
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                if "/" not in target:
                    problems.append(f"{rel}:{lineno}: #include \"{target}\" is not written from the top (\"folder/{target}\")")
                    continue
                other = layer_of(target)
                if other is None:
                    problems.append(f"{rel}:{lineno}: #include \"{target}\" names a header in no layer")
                elif other != own and RANK[other] >= RANK[own]:
                    how = "a sibling" if RANK[other] == RANK[own] else "a higher"
                    problems.append(f"{rel}:{lineno}: {own} includes \"{target}\" of {how} layer ({other})")
                elif other != own:
                    uses[own].add(other)
    return uses


def check_base_only(root, problems):
    """No file outside base/ calls what only base/ may call (BASE_ONLY)."""
    for rel in product_sources(root):
        if layer_of(rel) == "base":
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            # comments and strings blanked, their newlines kept for the line numbers
            code = COMMENT_OR_STRING.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), f.read())
        for lineno, line in enumerate(code.split("\n"), 1):
            for m in BASE_ONLY.finditer(line):
                name = m.group(1) or m.group(2)
                problems.append(f"{rel}:{lineno}: {name} outside base/ (push handlers with base/sigchain.h)")


def check_links(root, uses, problems):
    """Each layer's library links exactly the libraries of the layers its sources include."""
    libs = {lib: name for name, lib in LIBRARY.items()}
    linked = {}
    for top in product_folders(root):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            if "CMakeLists.txt" not in names:
                continue
            with open(os.path.join(dirpath, "CMakeLists.txt"), encoding="utf-8") as f:
                text = re.sub(r"#[^\n]*", "", f.read())
            for m in LINK.finditer(text):
                if m.group(1) in libs:
                    linked[libs[m.group(1)]] = {libs[w] for w in m.group(2).split() if w in libs}
    for name in RANK:
        if not uses[name] and name not in linked:
            continue  # a layer with no sources in this tree (the self-test fixtures)
        got = linked.get(name)
        if got is None:
            problems.append(f"{LIBRARY[name]}: no target_link_libraries found for layer {name}")
            continue
        for extra in sorted(got - uses[name]):
            problems.append(f"{LIBRARY[name]} links {LIBRARY[extra]} but no file of layer {name} includes {extra}/")
        for missing in sorted(uses[name] - got):
            problems.append(f"{LIBRARY[name]} does not link {LIBRARY[missing]} although layer {name} includes it")


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: check_layers.py ROOT", file=sys.stderr)
        return 2
    problems = []
    if not any(True for _ in product_sources(argv[1])):
        print(f"{argv[1]}: no C sources in the folders of its CMakeLists.txt")
        return 2
    uses = check_includes(argv[1], problems)
    check_links(argv[1], uses, problems)
    check_base_only(argv[1], problems)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layering problem(s); the layers are described in HACKING.md")
        return 1
    print("layers clean: " + ", ".join(f"{n} -> {{{', '.join(sorted(uses[n]))}}}" for n in RANK if uses[n]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
