#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Self-test of check_hacking_names.py: small trees written to a temp dir, each with a HACKING.md,
the exit code and the line the checker must print. A made-up identifier, path, option or command
fails; placeholders, paths outside the tree and what the sources do have pass."""
import sys

from selftest import run_selftest

CLEAN = {
    "CMakeLists.txt": "add_subdirectory(base)\noption(ENABLE_WERROR \"\" OFF)\n",
    "base/util.h": "struct errbuf { int len; };\nint util_parse_long(void);\nint util_parse_double(void);\n"
                   "#define CLI_ROW_STRING(x) x\n",
    "commands/cmd_table.c": '{"run", cmd_run, "measure"},\n{"history", cmd_history, "store"},\n',
    "commands/cmd_run.c": 'CLI_ROW_FLAG("budget", 0, "B");\nint cmd_run(void);\n',
    "tests/test_x.c": "TH_TEST(x, format_names) {}\n",
    ".gitignore": "/results/\n",
}


def hacking(text):
    return {"HACKING.md": "# Working on it\n\n" + text + "\n"}


GOOD = ("`base/util.h`, `util.h`, `struct errbuf`, `errbuf.len`, `util_parse_long/_double`, "
        "`CLI_ROW_STRING`, `_STRING`, `commands/cmd_<name>.c`, `tests/test_<module>.c`, "
        "`base/`, `*.c`, `../elsewhere/STYLE.md`, `DIR/client.cnf`, `/results/`, `build-x/y`, "
        "`dbt3stab run --budget 45m`, `run --budget`, `history check`, `--budget`, "
        "`-DENABLE_WERROR=ON`, `cmd_<name>`, `format_names`, `int cmd_run(void)`")

# (name, changes, expected exit code, a line the output must hold)
CASES = [
    ("names that exist pass", hacking(GOOD), 0, "HACKING.md names only what exists"),
    ("a struct that is gone fails", hacking(GOOD + "\nthe state in `struct tstate`"), 1,
     "HACKING.md:4: `struct tstate`: 'tstate' is not in the sources"),
    ("a made-up function fails", hacking("`util_frobnicate()`"), 1,
     "'util_frobnicate' is not in the sources"),
    ("a name inside a code snippet is checked", hacking("`int cmd_fly(int argc)`"), 1,
     "'cmd_fly' is not in the sources"),
    ("a missing sibling fails", hacking("`util_parse_long/_float`"), 1,
     "'util_parse_float' is not in the sources"),
    ("a suffix no name ends in fails", hacking("`_WIDGET`"), 1, "no name ends in '_WIDGET'"),
    ("a missing path fails", hacking("`base/missing.h`"), 1, "no file or folder 'base/missing.h'"),
    ("a missing bare file name fails", hacking("`gone.c`"), 1, "no file or folder 'gone.c'"),
    ("a placeholder path matching nothing fails", hacking("`server/srv_<name>.c`"), 1,
     "no file or folder 'server/srv_<name>.c'"),
    ("an unknown command fails", hacking("`dbt3stab fly -s 1`"), 1, "'fly' is no dbt3stab command"),
    ("an unknown option fails", hacking("`run --warp 9`"), 1,
     "option '--warp' is not one dbt3stab declares"),
    ("an option alone is checked", hacking("`--warp`"), 1,
     "option '--warp' is not one dbt3stab declares"),
    ("an unknown CMake option fails", hacking("`-DENABLE_WARP=ON`"), 1,
     "CMake option 'ENABLE_WARP' is not in the tree"),
    ("a span over a line break is one span", hacking("`run\n--budget`"), 0,
     "HACKING.md names only what exists: 1 backquoted spans"),
    ("a tree without HACKING.md is a usage error", {}, 2, "cannot read"),
]

if __name__ == "__main__":
    sys.exit(run_selftest("check_hacking_names.py", CLEAN, CASES))
