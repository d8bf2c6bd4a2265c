# --datadir naming an existing file (not a directory) is a usage error of every command that takes
# it: one line, exit 2, before anything is started or written (it was exit 4 after "initialising").
tmp=$(mktemp -d) && chmod 711 "$tmp" && cd "$tmp" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@" >out.txt 2>&1; rc=$?; sed "s|$tmp|TMP|g" out.txt; echo "exit=$rc"; }
echo "measured" >result.json
run server init --datadir result.json
run server status --datadir result.json
run server start --datadir result.json/
run query 6 --datadir result.json
run run -s 0.01 -o new.json --datadir result.json
cat result.json
rm -f out.txt && ls
cd / && rm -rf "$tmp"
