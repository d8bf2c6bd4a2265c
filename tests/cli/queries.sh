# queries/query/load: usage errors exit 2; the statements and their qgen parameters.
run() { "$DBT3STAB" "$@"; echo "exit=$?"; }
run queries --seed x
run queries --seed -1
run queries --seed 0
run query 6 --seed 0
run query 23
run query
run query 3 --format csv
run load --indexes all
run load -j 0
# input checked before any server starts: database names, --from DIR with the eight .tbl files
run load --database 'bad`name'
run load --database ''
run load --database "$(printf 'a%.0s' $(seq 65))"
"$DBT3STAB" queries | grep -c '^-- Q'
"$DBT3STAB" queries --seed 1 | grep -E "p_size in|in \('[0-9]"
"$DBT3STAB" queries -s 10 | grep -F 'ps_availqty) *'
"$DBT3STAB" load --print-schema --indexes keys-only | grep -c '^CREATE TABLE'
"$DBT3STAB" load --print-schema | grep -o 'ADD INDEX i_' | wc -l
tmp=$(mktemp -d) && cd "$tmp" || exit 1
run load --from no-such-dir
touch plain && run load --from plain
mkdir tbl && for t in nation region part supplier partsupp customer orders; do touch tbl/$t.tbl; done
run load --from tbl
mkdir tbl/lineitem.tbl && run load --from tbl
cd / && rm -rf "$tmp"
