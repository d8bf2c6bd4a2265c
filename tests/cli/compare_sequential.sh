# compare of two variants of one interleaved run: paired by restart index by default, the
# sequential replay (--sequential) with the pair each query was decided at, the unpaired fallback.
# Data: bench/protocol_gen.py seq_old.json seq_new.json --pairs 8 --warmup 4 --runs 3 --seed 3
#   --queries Q1,Q6,Q11,Q21 --effect Q1=1.08,Q21=0.85 --sd Q21=0.02 --drift 0.01
# (Q1 8% slower, Q21 15% faster); seq_sep_new.json: --noise-seed 4, no effect, another run's started_at (and plan.max_pairs 12).
cd "$(dirname "$0")/../data" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@"; echo "exit=$?"; }
run compare seq_old.json seq_new.json
run compare seq_old.json seq_new.json --sequential
run compare seq_old.json seq_new.json --sequential --unpaired --spending pocock --format markdown
run compare seq_old.json seq_new.json --sequential --max-pairs 20 --format json --quiet |
	grep -E '"(pairing|paired|why|sequential|decision|decided_after_pairs|pairs|max_pairs|spending|alpha_per_query|alternative|test)"'
# files of run --budget (seq_budget_*: seq_*.json with plan budget_s 600, detect 0.03, alpha 0.05,
# max_pairs 10): the run's rule is replayed (two-sided, margin 3%, K 10)
run compare seq_budget_old.json seq_budget_new.json --sequential --quiet
# ... and without --sequential too: the two variants of one budget run are replayed by default and
# the report says so; --fixed-sample forces the fixed-sample test; both at once are refused (the
# old name --fixed still works, and the refusal names the option as it was spelled)
run compare seq_budget_old.json seq_budget_new.json --quiet
run compare seq_budget_old.json seq_budget_new.json --fixed-sample --quiet | grep -E '^(\$|exit=|pairing|sequential|verdicts|Q[0-9]+ )'
run compare seq_budget_old.json seq_budget_new.json --fixed-sample --sequential
run compare seq_budget_old.json seq_budget_new.json --fixed --sequential
# a run whose horizon grew from 8 to 12 (plan.horizon, K after each pair): replayed look by look
hz=$(mktemp -d) || exit 1
for v in old new; do
	sed 's/"max_pairs": 10/"max_pairs": 12, "horizon": [8, 8, 9, 10, 11, 12, 12, 12]/' \
		seq_budget_$v.json >"$hz/hz_$v.json" || exit 1
done
(cd "$hz" && run compare hz_old.json hz_new.json --quiet | grep -E '^(\$|exit=|sequential|verdicts|  Q)' &&
	run compare hz_old.json hz_new.json --format json --quiet | grep -A9 '"horizon"' | tr -d ' \n' && echo)
rm -rf "$hz"
# another run: unpaired, said so with --sequential
run compare seq_old.json seq_sep_new.json --sequential
run compare seq_old.json seq_new.json --max-pairs 1
run compare seq_old.json seq_new.json --spending linear
# the sequential options alone are refused, not silently ignored
run compare seq_old.json seq_new.json --max-pairs 8
run compare seq_old.json seq_new.json --spending pocock
# a baseline with paired files: never pooled into the paired t, said so per query and in the header
run compare seq_old.json seq_new.json --baseline seq_sep_new.json | grep -E '^(\$|exit=|baseline|Q[0-9]+[ ,])'
# ... and with --sequential: every query's sequential test borrows the baseline's restart
# variance (twice it, paired) on its 7 df; the report says so
run compare seq_old.json seq_new.json --sequential --baseline seq_sep_new.json |
	grep -E '^(\$|exit=|variance|  Q)'
# ... unless tonight's pairs are noisier than it says: a baseline with a 25th of the restart
# variance (seq_quiet_base.json, tests/data/lend_check.py) is refused and each query uses its own
run compare seq_old.json seq_new.json --sequential --baseline seq_quiet_base.json |
	grep -E '^(\$|exit=|variance|  Q)'
# two runs of one restart each: K is 2 (the first look), each query says why it is undecided
one=$(mktemp -d) || exit 1
cp cmp_one.json "$one/one_a.json" &&
	sed 's/"started_at": "2026-11-30T01:00:00Z"/"started_at": "2026-11-30T03:00:00Z"/' \
		cmp_one.json >"$one/one_b.json" && cd "$one" || exit 1
run compare one_a.json one_b.json --sequential | grep -E '^(\$|exit=|sequential|  Q)'
cd / && rm -rf "$one"
