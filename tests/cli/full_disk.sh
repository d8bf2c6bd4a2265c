# Every command that prints a report, with standard output on a full disk (/dev/full): exit 2
# (never 1, compare's "regression", nor 0) and one line on standard error, for a short report
# (left in the stdio buffer until the end) and a long one (written, and failing, on the way).
# The reason ("No space left on device") is known when the last flush fails, not when the
# failing write was an earlier one. doctor's findings depend on the host, its exit code does not.
data=$(cd "$(dirname "$0")/../data" && pwd) || exit 1
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export DBT3STAB_HOME=$work/home
zcat "$data/measurements/aa-idle-a.json.gz" > long_a.json
zcat "$data/measurements/aa-idle-b.json.gz" > long_b.json
zcat "$data/measurements/quickstart-2warmup.json.gz" > long_q.json
cp "$data/cmp_old.json" old.json && cp "$data/cmp_regress.json" regress.json
full() {
  "$DBT3STAB" "$@" >/dev/full 2>err.txt
  local rc=$? args="$*"
  echo "\$ dbt3stab ${args//$data/DATA} >/dev/full: exit=$rc, $(wc -l <err.txt) line(s) on stderr"
  sed 's/^/  /' err.txt
}
for f in text markdown junit json html; do
  full compare old.json regress.json --format "$f"
  full compare old.json regress.json --format "$f" --quiet
  full compare long_a.json long_b.json --format "$f" --quiet
done
for f in text markdown json; do
  full summary old.json --format "$f"
  full summary long_q.json --format "$f"
done
full report old.json
full report long_a.json long_b.json
"$DBT3STAB" history add -q old.json regress.json long_a.json long_b.json || echo "add failed"
full history list
full history show 1
for f in csv json; do full history export --format "$f"; done
for f in text markdown junit json html; do full history check --format "$f"; done
full queries
full queries --seed 1
full pin --explain --topology "synthetic:pack:2 numa:1 core:8 pu:2"
full pin --json --topology "synthetic:pack:1 core:2 pu:1"
full pin --explain --topology "$data/../topologies/xeon-e5-2690.xml"
full doctor
full doctor --json
full gen -s 0.01 -T nation --stdout
full gen -s 0.01 -T customer --stdout
full --help
full --version
full run --help
for cmd in server gen load queries query run summary compare report history pin doctor stabilize; do
  "$DBT3STAB" "$cmd" --help >/dev/full 2>err.txt; echo "$cmd --help: exit=$?, $(cat err.txt)"
done
