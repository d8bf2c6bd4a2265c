# A directory output (-o DIR of gen and queries) that is an existing file, or cannot be made, or
# is empty, is a bad -o: one line, exit 2 (docs/cli.md, "Exit codes"), and the file is left as it was.
tmp=$(mktemp -d) && cd "$tmp" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@" >out.txt 2>&1; rc=$?; cat out.txt; echo "exit=$rc"; }
echo "not a directory" >file.txt
run gen -s 0.01 -T region -q -o file.txt
run gen -s 0.01 -T region -q -o file.txt/sub
run queries -o file.txt
run queries -o file.txt/sub
run queries -o ''
cat file.txt
run queries -q -o qdir && ls qdir | wc -l
rm -rf out.txt qdir && ls
cd / && rm -rf "$tmp"
