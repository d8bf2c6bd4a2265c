#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The benchmark table of docs/history.md is what bench/history.sh prints with the documented seed
# and replicates (label slow: about a minute of CPU). usage: history_bench.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
want=$(grep -E '^\| (none|step|drift|outlier)' "$here/docs/history.md")
got=$("$here/bench/history.sh" -b "$1" -r 200 -s 20261201 | grep -E '^\| (none|step|drift|outlier)')
if [ "$want" != "$got" ]; then
	diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$got") || true
	echo "docs/history.md's table differs from bench/history.sh -r 200 -s 20261201" >&2
	exit 1
fi
echo "docs/history.md's table reproduced ($(printf '%s\n' "$got" | wc -l) rows)"
