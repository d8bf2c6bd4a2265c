#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when a relative Markdown link of the docs leads nowhere: README.md, HACKING.md and every
.md file under docs/ and bench/. A link [text](path) must name a file or folder of the tree
(relative to the page); [text](path#anchor) and [text](#anchor) must also name a heading of that
page, spelled as GitHub makes a heading's anchor (lower case, punctuation but '-' and '_' dropped,
spaces as '-', a repeated heading's anchor ending in -1, -2, ...). Links with a scheme (https:,
mailto:) are not checked.

usage: check_doc_links.py ROOT   (exit 0 every link resolves, 1 a broken link, 2 usage)
"""
import os
import re
import sys

LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^```.*?^```[^\n]*$", re.S | re.M)


def pages(root):
    for top in ("README.md", "HACKING.md"):
        if os.path.exists(os.path.join(root, top)):
            yield top
    for folder in ("docs", "bench"):
        for dirpath, dirs, names in os.walk(os.path.join(root, folder)):
            dirs.sort()
            for n in sorted(names):
                if n.endswith(".md"):
                    yield os.path.relpath(os.path.join(dirpath, n), root).replace(os.sep, "/")


def slug(heading):
    """GitHub's anchor of a heading's text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading: its text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache):
    if path not in cache:
        with open(path, encoding="utf-8") as f:
            text = FENCE.sub("", f.read())
        seen, out = {}, set()
        for line in text.splitlines():
            m = HEADING.match(line)
            if not m:
                continue
            s = slug(m.group(2))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
        cache[path] = out
    return cache[path]


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    root = argv[1]
    problems, links, cache = [], 0, {}
    for page in pages(root):
        with open(os.path.join(root, page), encoding="utf-8") as f:
            text = f.read()
        text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
        for m in LINK.finditer(text):
            target = m.group(1) or m.group(2)
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue
            links += 1
            line = text.count("\n", 0, m.start()) + 1
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(root, os.path.dirname(page), path)) if path \
                else os.path.join(root, page)
            if not os.path.exists(full):
                problems.append(f"{page}:{line}: ({target}): no such file")
            elif anchor and full.endswith(".md") and anchor not in anchors(full, cache):
                problems.append(f"{page}:{line}: ({target}): no heading '#{anchor}' in "
                                f"{os.path.relpath(full, root)}")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} broken link(s)")
        return 1
    print(f"every relative link resolves: {links} links")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
