#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The CI recipes of docs/ci/ run here at SF 0.01 (two queries, two restarts): the steps both
# workflows call (docs/ci/nightly.sh twice: a first night that makes and loads the instance and
# a second that finds it loaded, as after a cache hit; then docs/ci/pr-check.sh with one server
# binary as both builds). usage: ci_recipes.sh DBT3STAB SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
fail=0
check() { # check WHAT COMMAND...: a failed check is said and counted
	local what=$1
	shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
for wf in github-actions.yml gitlab-ci.yml; do
	check "$wf calls nightly.sh" grep -q 'docs/ci/nightly.sh' "$src/docs/ci/$wf"
	check "$wf calls pr-check.sh" grep -q 'docs/ci/pr-check.sh' "$src/docs/ci/$wf"
done
tmp=$(mktemp -d) || exit 1
chmod 711 "$tmp" # the server's user must reach the instance below it
trap '"$bin" server stop --datadir "$tmp/inst" -q >/dev/null 2>&1; rm -rf "$tmp"' EXIT
mysqld=$(command -v mariadbd || echo /usr/sbin/mariadbd)
export DBT3STAB=$bin DBT3_DATADIR=$tmp/inst DBT3_SF=0.01 DBT3_OUT=$tmp/out
export DBT3_RUN_ARGS="--queries 1,6 --restarts 2 --warmup 0 --runs 1 --no-pin"

for night in 1 2; do
	DBT3_MYSQLD=$mysqld DBT3_BUILD_ID=build-$night "$src/docs/ci/nightly.sh" >"$tmp/night$night.log" 2>&1
	rc=$?
	check "nightly $night exits 0 (got $rc)" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || cat "$tmp/night$night.log"
done
check "the second night took the scale factor from the data" \
	grep -q "scale factor 0.01, from the loaded data" "$tmp/night2.log"
check "the history holds both nights" \
	grep -q " 2 results " <("$bin" history list --db "$tmp/out/history.sqlite" 2>&1)
check "JUnit written" grep -q "<testcase" "$tmp/out/history-junit.xml"
check "trend page written" grep -qi "<html" "$tmp/out/trends.html"

export GITHUB_STEP_SUMMARY=$tmp/summary.md
DBT3_BASE_MYSQLD=$mysqld DBT3_PR_MYSQLD=$mysqld "$src/docs/ci/pr-check.sh" >"$tmp/pr.log" 2>&1
rc=$?
# one binary on both sides: no wrong result, no failure (a chance regression at two restarts
# is exit 1 and as good a gate)
check "pr-check exits 0 or 1 (got $rc)" [ "$rc" = 0 ] || [ "$rc" = 1 ]
[ "$rc" -le 1 ] || cat "$tmp/pr.log"
check "both variants measured" test -s "$tmp/out/pr/base.json" -a -s "$tmp/out/pr/pr.json"
check "the Markdown report is in the job summary" grep -q "Q6" "$GITHUB_STEP_SUMMARY"
exit "$fail"
