# compare on hand-made result files (tests/data/gen_compare.py): every verdict and exit code.
cd "$(dirname "$0")/../data" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@"; echo "exit=$?"; }
# A/A: nothing flagged -> 0; with 2% restart noise and 5 restarts the CIs (about +-3%) cannot rule
# out a 2% change: inconclusive. With 0.3% noise they can: unchanged.
run compare cmp_old.json cmp_same.json
run compare cmp_tight_old.json cmp_tight_new.json
# Q3 30% slower (regression), Q6 30% faster (improvement), Q14 plan changed -> 1
run compare cmp_old.json cmp_regress.json
# Q1 result differs (wrong-result) beside a regression: 3 takes precedence
run compare cmp_old.json cmp_wrong.json
# one restart on a side: inconclusive without a baseline (0), tested with one (1)
run compare cmp_old.json cmp_one.json
run compare cmp_old.json cmp_one.json --baseline cmp_same.json
# crash, timeout, not steady and an unfinished file: warnings, still compared
run compare cmp_old.json cmp_warn.json
# the regression is below --min-effect 40%: unchanged
run compare --min-effect 40% cmp_old.json cmp_regress.json --quiet
# without a correction, and with BH
run compare --correction none --alpha 0.01 cmp_old.json cmp_same.json
run compare --correction bh cmp_old.json cmp_wrong.json
# moderated t: restart variances shrunk across queries
run compare --method eb cmp_old.json cmp_regress.json
# labels say what was done: --method pooled is the pooled (Student) t, per query "pooled"
run compare --method pooled cmp_old.json cmp_regress.json
# Welch does not use a baseline, and says so
run compare --method welch cmp_old.json cmp_regress.json --baseline cmp_same.json
# two-sided: one family for both directions
run compare --alternative two-sided cmp_old.json cmp_regress.json
# the min-effect test: slower by more than 2% with confidence
run compare --min-effect-test cmp_old.json cmp_regress.json
