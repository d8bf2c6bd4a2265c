#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Self-test of check_doc_links.py: small trees of Markdown pages written to a temp dir, each with
the exit code and the line the checker must print. A link to a missing page or heading fails."""
import sys

from selftest import run_selftest

CLEAN = {
    "README.md": "# Tool\n\n[run](docs/run.md), [budget](docs/run.md#within-a-time-budget---budget-duration)\n",
    "docs/run.md": "# `dbt3stab run`\n\n## Within a time budget: `--budget DURATION`\n\n## Notes\n\n"
                   "## Notes\n\n[up](../README.md), [same](#notes-1), [data](../bench/data/x/)\n",
    "bench/data/x/README.md": "# x\n\n[back](../../../docs/run.md#notes)\n",
}

# (name, changes, expected exit code, a line the output must hold)
CASES = [
    ("links that resolve pass", {}, 0, "every relative link resolves: 6 links"),
    ("a missing page fails", {"docs/extra.md": "[gone](statistics.md)\n"}, 1,
     "docs/extra.md:1: (statistics.md): no such file"),
    ("a missing heading fails", {"docs/extra.md": "\n[gone](run.md#side-by-side)\n"}, 1,
     "docs/extra.md:2: (run.md#side-by-side): no heading '#side-by-side' in docs/run.md"),
    ("a missing heading of the page itself fails", {"docs/extra.md": "# A\n[a](#b)\n"}, 1,
     "(#b): no heading '#b' in docs/extra.md"),
    ("a link in a code block is not a link", {"docs/extra.md": "```\n[x](nowhere.md)\n```\n"}, 0,
     "every relative link resolves"),
    ("a web link is not checked", {"docs/extra.md": "[x](https://example.com/a.md#b)\n"}, 0,
     "every relative link resolves: 6 links"),
    ("an image is checked too", {"docs/extra.md": "![x](missing.png)\n"}, 1,
     "(missing.png): no such file"),
]

if __name__ == "__main__":
    sys.exit(run_selftest("check_doc_links.py", CLEAN, CASES))
