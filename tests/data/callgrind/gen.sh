#!/bin/sh
# Makes small.out (callgrind's output of cgfx.c, collected inside work() as run --instructions
# collects inside dispatch_command), callgrind_annotate's self and inclusive tables of it, and
# expected.tsv derived from those tables by derive.py. Run from anywhere; needs gcc and valgrind.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/cgfx.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cp "$here/cgfx.c" "$here/cgfx.h" "$tmp/"
cd "$tmp"
gcc -O1 -g -o cgfx cgfx.c
valgrind --tool=callgrind --toggle-collect=work --callgrind-out-file=small.out ./cgfx >/dev/null 2>&1
sed "s|$tmp|/tmp/cgfx|g" small.out >"$here/small.out"
callgrind_annotate --inclusive=no --threshold=100 "$here/small.out" >"$here/annotate_self.txt"
callgrind_annotate --inclusive=yes --threshold=100 "$here/small.out" >"$here/annotate_incl.txt"
python3 "$here/derive.py" "$here/annotate_self.txt" "$here/annotate_incl.txt" >"$here/expected.tsv"
