#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The pull-request check (docs/ci/README.md): the base build and the pull request's build of
# the server measured side by side on one loaded instance, compared, the Markdown report put in
# the job summary; the exit code of compare is the gate. The GitHub Actions workflow and the
# GitLab CI job call this script.
# Environment: DBT3_DATADIR (the instance, kept by the CI cache), DBT3_SF (scale factor of a
# first load, default 1), DBT3_BASE_MYSQLD and DBT3_PR_MYSQLD (the two server binaries),
# DBT3_OUT (default ci-out), DBT3_RUN_ARGS (extra run options, default "--restarts 5"),
# GITHUB_STEP_SUMMARY (set by GitHub Actions: the report is appended there).
# Exit: compare's: 0 nothing flagged, 1 a regression or changed work, 3 wrong results; or the
# failing step's exit code.
set -euo pipefail
dbt3stab=${DBT3STAB:-dbt3stab}
datadir=${DBT3_DATADIR:?set DBT3_DATADIR to the cached instance directory}
base=${DBT3_BASE_MYSQLD:?set DBT3_BASE_MYSQLD to the base build\'s server binary}
pr=${DBT3_PR_MYSQLD:?set DBT3_PR_MYSQLD to the pull request build\'s server binary}
out=${DBT3_OUT:-ci-out}
mkdir -p "$out"

if [ ! -d "$datadir/data" ]; then
	mkdir -p "$(dirname "$datadir")" # server init makes the instance (docs/server.md)
	"$dbt3stab" server init --datadir "$datadir" --mysqld "$base" -q
fi
"$dbt3stab" load -s "${DBT3_SF:-1}" --datadir "$datadir" --mysqld "$base" -q

# Two variants of one run: side by side where the host has room, restart-paired otherwise.
rm -rf "$out/pr"
# shellcheck disable=SC2086
"$dbt3stab" run --datadir "$datadir" -o "$out/pr" --no-table \
	--variant "base:mysqld=$base" --variant "pr:mysqld=$pr" ${DBT3_RUN_ARGS:---restarts 5}
rc=0
"$dbt3stab" compare --format markdown -o "$out/compare.md" "$out/pr/base.json" \
	"$out/pr/pr.json" || rc=$?
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
	cat "$out/compare.md" >>"$GITHUB_STEP_SUMMARY"
fi
echo "pr-check: compare exit $rc; report $out/compare.md"
exit "$rc"
