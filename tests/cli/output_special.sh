# F1/F3 (issue 30): an output that exists and is not a regular file (a device, a FIFO, a
# directory) is refused with one line and exit 2 by every command that writes, and is left as it
# was; a symbolic link planted at the old temp name (PATH.tmp) is left alone, its target
# unchanged: temp files have a random name, made with O_EXCL|O_NOFOLLOW.
data=$(cd "$(dirname "$0")/../data" && pwd)
tmp=$(mktemp -d) && cd "$tmp" || exit 1
run() { echo "\$ dbt3stab $*" | sed "s|$tmp|TMP|g"; "$DBT3STAB" "$@" >out.txt 2>&1; rc=$?; sed "s|$tmp|TMP|g; s/, [0-9]* bytes)/, N bytes)/" out.txt; echo "exit=$rc"; }
cp "$data/cmp_old.json" old.json && cp "$data/cmp_regress.json" new.json
mkfifo fifo && mkdir adir gd qd && mkfifo gd/region.tbl qd/6.sql
"$DBT3STAB" history add --db h.sqlite -q old.json || echo "add failed"
for dev in /dev/null /dev/full; do
  run compare old.json new.json -o $dev
  run compare old.json new.json --format html -o $dev
  run summary old.json -o $dev
  run report old.json -o $dev
  run history export --db h.sqlite -o $dev
  run history check --db h.sqlite -o $dev
  run run -s 0.01 --datadir "$tmp/inst" --queries 6 -o $dev --force
done
run compare old.json new.json -o fifo
run summary old.json -o adir
run report old.json -o fifo
run run -s 0.01 --datadir "$tmp/inst" --queries 6 -o fifo --force
run gen -s 0.01 -T region -q -o gd
run queries -o qd
stat -c '%n %F' /dev/null /dev/full fifo adir gd/region.tbl qd/6.sql
# planted links at the old fixed temp names: nothing written through them
echo "victim" > victim
ln -s "$tmp/victim" c.txt.tmp && ln -s "$tmp/victim" s.txt.tmp && ln -s "$tmp/victim" r.html.tmp
mkdir g2 && ln -s "$tmp/victim" g2/region.tbl.tmp
run compare old.json new.json -o c.txt
run summary old.json -o s.txt
run report old.json -o r.html
run gen -s 0.01 -T region -q -o g2
echo "victim: $(cat victim)"
stat -c '%n %F' c.txt.tmp s.txt.tmp r.html.tmp g2/region.tbl.tmp c.txt s.txt r.html g2/region.tbl
rm -f out.txt && ls -A . gd qd g2
cd / && rm -rf "$tmp"
