#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Self-test of check_fn_length.py: small trees written to a temp dir, each with the exit code and the
line the checker must print. The edge fixtures: a function of exactly 100 lines passes, one of
101 lines fails; a .c file of 1000 lines passes, one of 1001 fails; the other cases prove what is and is not counted as a function's lines."""
import sys

from selftest import run_selftest

TOP = "add_subdirectory(dbt3)\nadd_subdirectory(runner)\nadd_subdirectory(tests)\n"


def function(name, lines, signature_lines=1, middle="\tx++;"):
    """C text of a function `name` that spans `lines` lines, from its first signature line to its
    closing brace: the signature, '{', filler statements (the middle one is `middle`), '}'."""
    sig = [f"int {name}(int x)"] if signature_lines == 1 else [f"int {name}(int x,", "\tint y)"]
    filler = lines - len(sig) - 2 - 1  # '{', 'return', '}'
    body = ["\tx++;"] * filler
    body[filler // 2] = middle
    return "\n".join(sig + ["{"] + body + ["\treturn x;", "}"]) + "\n"


def with_header(c_text):
    """A file whose function starts on line 4, after a comment and an include."""
    return '/* SPDX-License-Identifier: MIT */\n#include "dbt3/x.h"\n\n' + c_text


CLEAN = {
    "CMakeLists.txt": TOP,
    "dbt3/x.h": "int f(int x);\n",
    "runner/run.c": "int g(void)\n{\n\treturn 0;\n}\n",
}

# (name, files added to CLEAN, expected exit code, a line the output must hold)
CASES = [
    ("a 100-line function passes", {"dbt3/x.c": with_header(function("f", 100))}, 0,
     "functions within 100 lines: 2 in 3 files"),
    ("a 101-line function fails", {"dbt3/x.c": with_header(function("f", 101))}, 1,
     "dbt3/x.c:4: f is 101 lines (at most 100)"),
    ("a signature over two lines counts from its first", {"dbt3/x.c": function("f", 101, 2)}, 1,
     "dbt3/x.c:1: f is 101 lines"),
    ("braces in strings, characters and comments are not counted",
     {"dbt3/x.c": function("f", 101, middle="\tx += '}' + sizeof(\"}}\"); /* } */ // }")}, 1,
     "dbt3/x.c:1: f is 101 lines"),
    ("braces in a preprocessor line are not counted",
     {"dbt3/x.c": function("f", 101, middle="#define CLOSE }")}, 1, "dbt3/x.c:1: f is 101 lines"),
    ("a long initializer is no function",
     {"dbt3/x.c": "static const int t[] = {\n" + "\t1,\n" * 150 + "};\n" + function("f", 100)}, 0,
     "functions within 100 lines"),
    ("a long struct is no function",
     {"dbt3/x.h": "struct s {\n" + "\tint a;\n" * 150 + "};\n" + "int f(int x);\n"}, 0,
     "functions within 100 lines"),
    ("an attribute does not hide the name",
     {"dbt3/x.c": "__attribute__((format(printf, 1, 2)))\n" + function("f", 101)}, 1,
     "dbt3/x.c:1: f is 102 lines"),
    ("tests/ is not product code",
     {"tests/test_x.c": function("t", 300)}, 0, "functions within 100 lines"),
    ("the allowed hot loop may be longer",
     {"dbt3/gen.c": function("order_unit", 150)}, 0, "allowed longer: dbt3/gen.c order_unit (150)"),
    ("another function of the generator may not",
     {"dbt3/gen.c": function("order_unit", 150) + function("part_row", 101)}, 1,
     "dbt3/gen.c:151: part_row is 101 lines"),
    ("an allowed entry no longer over the limit fails",
     {"dbt3/gen.c": function("order_unit", 100)}, 1,
     "order_unit is listed as allowed over 100 lines"),
    ("a .c file of 1000 lines passes",
     {"dbt3/x.c": "int x;\n" * 1000}, 0, ".c files within 1000 lines"),
    ("a .c file of 1001 lines fails",
     {"dbt3/x.c": "int x;\n" * 1001}, 1, "dbt3/x.c: 1001 lines (at most 1000 in a .c file)"),
    ("the last line counts without its newline",
     {"dbt3/x.c": "int x;\n" * 1000 + "int y;"}, 1, "dbt3/x.c: 1001 lines"),
    ("a header is not held to the file limit",
     {"dbt3/x.h": "int f(int x);\n" * 1001}, 0, ".c files within 1000 lines"),
    ("the generator's files may be longer",
     {"dbt3/gen_dists.c": "int x;\n" * 1500}, 0, ".c files within 1000 lines"),
    ("another file of dbt3/ may not",
     {"dbt3/load.c": "int x;\n" * 1001}, 1, "dbt3/load.c: 1001 lines"),
    ("tests/ is not held to the file limit",
     {"tests/test_x.c": "int x;\n" * 1500}, 0, ".c files within 1000 lines"),
    ("a tree without sources is a usage error",
     {"dbt3/x.h": None, "runner/run.c": None}, 2, "no C sources"),
]


if __name__ == "__main__":
    sys.exit(run_selftest("check_fn_length.py", CLEAN, CASES))
