# compare --adjust-memory on the real A/B of 2026-12-02 cut to four queries (tests/data/adj_*.json,
# tests/data/adj_fixture.py; semijoin=off: Q21 slower, Q18 and Q20 faster with other plans):
# every query adjusted for the restarts' memory probes by the two-sample ANCOVA, never paired;
# the paired default beside it; the JSON members; what it refuses (exit 2).
cd "$(dirname "$0")/../data" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@"; echo "exit=$?"; }
run compare adj_old.json adj_new.json --quiet | grep -E '^(\$|exit=|test|pairing|adjusted|Q[0-9]+ )'
run compare adj_old.json adj_new.json --adjust-memory --quiet
run compare adj_old.json adj_new.json --adjust-memory --format json --quiet |
	grep -E '^(\$|exit=)|"(adjustment|covariate|model|queries|tested|median_sd_ratio|adjusted|slope|sd_ratio|test|paired|why)"'
run compare adj_old.json adj_new.json --adjust-memory --format markdown --quiet | grep -E '^(\$|exit=|- adjusted)'
run compare adj_old.json adj_new.json --adjust-memory --sequential
run compare adj_old.json adj_new.json --adjust-memory --baseline adj_old.json
run compare cmp_old.json cmp_same.json --adjust-memory
