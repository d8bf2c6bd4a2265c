#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The semijoin A/B of the work counters by hand, with the mariadb client and not dbt3stab's
# measuring code (the expectation of tests/test_run_work_db.c): one server start; per query and
# per optimizer_switch semijoin=on/off, one warm-up execution, then one measured between two
# readings of SHOW SESSION STATUS; prints the queries whose counts differ.
# usage: bench/work-ab-byhand.sh DATADIR SF OUT.tsv   (the instance loaded at SF, stopped)
set -eu
dir=$1 sf=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
bin=${DBT3STAB:-$here/../build/commands/dbt3stab}
qdir=$(mktemp -d)
trap 'rm -rf "$qdir"' EXIT
"$bin" queries -s "$sf" -o "$qdir" -q
"$bin" server start --datadir "$dir" -q
names="'Handler_read_first','Handler_read_key','Handler_read_next','Handler_read_prev',"
names+="'Handler_read_rnd','Handler_read_rnd_next','Handler_write','Sort_rows','Sort_merge_passes',"
names+="'Created_tmp_tables','Created_tmp_disk_tables','Select_scan','Select_full_join',"
names+="'Select_range','Select_range_check','Handler_tmp_write','Handler_tmp_update','Rows_read',"
names+="'Rows_tmp_read'"
snap="SHOW SESSION STATUS WHERE Variable_name IN ($names);"
: >"$out"
for v in on off; do
  for q in $(seq 1 22); do
    { echo "SET SESSION optimizer_switch='semijoin=$v';"; cat "$qdir/$q.sql"; echo
      echo "$snap"; cat "$qdir/$q.sql"; echo; echo "$snap"; } |
      mariadb --defaults-file="$dir/client.cnf" dbt3 -N -B |
      awk -F'\t' -v v=$v -v q=$q 'NF==2 && $1 ~ /^(Handler|Rows|Sort|Created|Select)_/ {print v"\t"q"\t"$1"\t"$2}' >>"$out"
  done
done
"$bin" server stop --datadir "$dir" -q
python3 - "$out" <<'PY'
import collections, sys
d = collections.defaultdict(dict)
for l in open(sys.argv[1]):
    v, q, n, x = l.split('\t')
    d[(v, int(q))].setdefault(n, []).append(int(x))
changed = []
for q in range(1, 23):
    a = {n: xs[1] - xs[0] for n, xs in d[('on', q)].items()}
    b = {n: xs[1] - xs[0] for n, xs in d[('off', q)].items()}
    diff = {n: (a[n], b[n]) for n in a if a[n] != b[n]}
    if diff:
        changed.append(q)
        print(f"Q{q}:", ", ".join(f"{n} {x} -> {y}" for n, (x, y) in list(diff.items())[:4]))
print("work changed under semijoin=off:", ", ".join(f"Q{q}" for q in changed))
PY
