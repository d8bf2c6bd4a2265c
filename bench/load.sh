#!/usr/bin/env bash
# Load speed at one scale factor, each on a fresh private server:
#  (a) the DBT-3 kit's way: dbgen files on disk (here `dbt3stab gen`, byte-identical to dbgen),
#      then one LOAD DATA LOCAL INFILE per table in sequence, then one CREATE INDEX per index,
#      then ANALYZE TABLE; the server runs its normal configuration;
#  (b) `dbt3stab load` (in-process generator, parallel connections, bulk profile, restore).
# Prints each phase, the totals and the ratio (a)/(b). The machine should be otherwise idle.
# usage: bench/load.sh [-s SF] [-k] [DBT3STAB]      -k keeps the work directory
set -euo pipefail
. "$(dirname "$0")/lib.sh"
sf=1 keep=0
bench_opts "s=sf k!=keep" "$@"
shift "$bench_shift"
bin=${1:-$bench_root/build/commands/dbt3stab}
bench_work dbt3-loadbench # the two instances are in here
pa=$(bench_free_port) pb=$(bench_free_port)
A=(--datadir "$work/a" --port "$pa" --scale "$sf")
B=(--datadir "$work/b" --port "$pb" --scale "$sf")
cleanup() {
  "$bin" server stop "${A[@]}" -q 2>/dev/null || true
  "$bin" server stop "${B[@]}" -q 2>/dev/null || true
  bench_cleanup
}
trap cleanup EXIT
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

echo "scale factor $sf, $(nproc) CPUs, load average: $(bench_loadavg)"
"$bin" server init "${A[@]}" -q
"$bin" server init "${B[@]}" -q

# (a) the kit's way
sql() { mariadb --defaults-file="$work/a/client.cnf" --local-infile=1 "$@"; } # the instance's account
t0=$(bench_now)
"$bin" gen -s "$sf" -o "$work/tbl" -q
t1=$(bench_now)
"$bin" server start "${A[@]}" -q
sql -e "CREATE DATABASE dbt3"
"$bin" load --print-schema --indexes keys-only | sql dbt3
for t in customer lineitem nation orders part partsupp region supplier; do
  sql dbt3 -e "LOAD DATA LOCAL INFILE '$work/tbl/$t.tbl' INTO TABLE $t FIELDS TERMINATED BY '|' LINES TERMINATED BY '|\n'"
done
t2=$(bench_now)
# one CREATE INDEX per index, as the kit's scripts do
"$bin" load --print-schema --indexes dbt3 | grep '^ALTER' |
  sed -E 's/^ALTER TABLE ([a-z]+) (.*);$/\1 \2/' |
  awk '{ t = $1; sub(/^[a-z]+ /, ""); n = split($0, ix, /, ADD INDEX /);
         for (i = 1; i <= n; i++) { sub(/^ADD INDEX /, "", ix[i]); split(ix[i], p, " ");
           printf "CREATE INDEX %s ON %s %s;\n", p[1], t, substr(ix[i], length(p[1]) + 2) } }' > "$work/indexes.sql"
sql dbt3 < "$work/indexes.sql"
t3=$(bench_now)
sql dbt3 -e "ANALYZE TABLE customer, lineitem, nation, orders, part, partsupp, region, supplier" > /dev/null
t4=$(bench_now)
"$bin" server stop "${A[@]}" -q
du_tbl=$(du -sh "$work/tbl" | cut -f1)
du_a=$(du -sh "$work/a/data" | cut -f1)
rm -rf "$work/tbl"
total_a=$(secs "$t0" "$t4")
echo "(a) DBT-3 kit way"
echo "    generate files   $(secs "$t0" "$t1") s  ($du_tbl of .tbl files)"
echo "    load, 1 by 1     $(secs "$t1" "$t2") s"
echo "    create indexes   $(secs "$t2" "$t3") s  ($(grep -c . "$work/indexes.sql") statements)"
echo "    analyze          $(secs "$t3" "$t4") s"
echo "    total            $total_a s  (datadir $du_a)"

# (b) dbt3stab load
t0=$(bench_now)
"$bin" load -s "$sf" "${B[@]}" 2> "$work/b.log" || { cat "$work/b.log"; exit 1; }
t1=$(bench_now)
total_b=$(secs "$t0" "$t1")
echo "(b) dbt3stab load"
sed -n '/^loaded/,$p' "$work/b.log" | sed 's/^/    /'
echo "    total            $total_b s  (datadir $(du -sh "$work/b/data" | cut -f1))"
awk -v a="$total_a" -v b="$total_b" 'BEGIN { printf "ratio (a)/(b): %.2fx\n", a / b }'
