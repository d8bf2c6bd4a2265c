#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Self-test of check_layers.py: small trees written to a temp dir, each with the exit code and the
line the checker must print. Proves the check fails on the includes and links it is there to catch."""
import sys

from selftest import run_selftest

TOP = "add_subdirectory(base)\nadd_subdirectory(server)\nadd_subdirectory(stats)\nadd_subdirectory(dbt3)\n" \
      "add_subdirectory(runner)\nadd_subdirectory(commands)\nadd_subdirectory(tests)\n"
CLEAN = {
    "CMakeLists.txt": TOP,
    "base/CMakeLists.txt": "add_library(dbt3_base STATIC util.c)\n",
    "base/util.h": "int util(void);\n",
    "base/util.c": '#include "base/util.h"\n',
    "base/sigchain.c": "int sigchain_push(int sig) { struct sigaction sa; return sigaction(sig, &sa, 0); }\n",
    "server/CMakeLists.txt": "target_link_libraries(dbt3_server PUBLIC dbt3_base m)\n",
    "server/srv.h": '#include "base/util.h"\n',
    "stats/CMakeLists.txt": "target_link_libraries(dbt3_stats PUBLIC dbt3_base)\n",
    "stats/st.h": '#include "base/util.h"\n',
    "dbt3/CMakeLists.txt": "target_link_libraries(dbt3_data PUBLIC dbt3_base dbt3_server)\n",
    "dbt3/load.h": '#include <mysql.h>\n#include "base/util.h"\n#include "server/srv.h"\n',
    "runner/CMakeLists.txt": "target_link_libraries(dbt3_protocol PUBLIC dbt3_data)\n",
    "commands/CMakeLists.txt": "target_link_libraries(dbt3_commands PUBLIC dbt3_protocol dbt3_server)\n",
    "runner/run.h": '#include "dbt3/load.h"\n',
    "commands/cmd_run.c": '#include "runner/run.h"\n#include "server/srv.h"\n'
                          '/* not sigaction(2) but base/sigchain.h */\nconst char *s = "signal(";\n'
                          "void f(void) { pthread_cond_signal(0); strsignal(2); }\n",
    "commands/main.c": '#include "commands/cmd.h"\n',
    "commands/cmd.h": "int cmd_run(int argc, char **argv);\n",
    "tests/test_x.c": '#include "commands/cmd.h"\n#include "x.h"\n',  # tests may include anything
}

# (name, changes to CLEAN (None deletes a file), expected exit code, a line the output must hold)
CASES = [
    ("clean tree passes", {}, 0, "layers clean:"),
    ("upward include fails", {"base/util.h": '#include "server/srv.h"\n'}, 1,
     'base/util.h:1: base includes "server/srv.h" of a higher layer (server)'),
    ("protocol including a command fails", {"runner/run.h": '#include "commands/cmd.h"\n'}, 1,
     'runner/run.h:1: protocol includes "commands/cmd.h" of a higher layer (commands)'),
    ("sibling work modules fail", {"stats/st.h": '#include "base/util.h"\n#include "dbt3/load.h"\n'}, 1,
     'stats/st.h:2: stats includes "dbt3/load.h" of a sibling layer (dbt3)'),
    ("include not written from the top fails", {"server/srv.h": '#include "util.h"\n'}, 1,
     'server/srv.h:1: #include "util.h" is not written from the top'),
    ("file in no layer fails", {"runner/helper.c": "\n"}, 1, "runner/helper.c: in no layer"),
    ("library missing a link fails", {"dbt3/CMakeLists.txt": "target_link_libraries(dbt3_data PUBLIC dbt3_base)\n"}, 1,
     "dbt3_data does not link dbt3_server although layer dbt3 includes it"),
    ("library with an extra link fails",
     {"stats/CMakeLists.txt": "target_link_libraries(dbt3_stats PUBLIC dbt3_base dbt3_server)\n"}, 1,
     "dbt3_stats links dbt3_server but no file of layer stats includes server/"),
    ("sigaction outside base fails",
     {"server/srv.c": "#include <signal.h>\nvoid f(void) {\n\tsigaction(SIGINT, 0, 0);\n}\n"}, 1,
     "server/srv.c:3: sigaction outside base/"),
    ("struct sigaction outside base fails", {"dbt3/gen.c": "static struct sigaction sa;\n"}, 1,
     "dbt3/gen.c:1: sigaction outside base/"),
    ("signal() outside base fails", {"commands/main.c": "int main(void) { signal (SIGPIPE, SIG_IGN); }\n"}, 1,
     "commands/main.c:1: signal outside base/"),
    ("tree without sources is a usage error", {k: None for k in CLEAN if k.endswith((".c", ".h"))}, 2,
     "no C sources"),
]


if __name__ == "__main__":
    sys.exit(run_selftest("check_layers.py", CLEAN, CASES))
