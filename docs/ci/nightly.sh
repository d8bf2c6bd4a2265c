#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The nightly job (docs/ci/README.md): the cached instance loaded once, the reference build
# measured, the result stored in the history, the history checked (JUnit) and its trend page
# written. The GitHub Actions workflow and the GitLab CI job call this script.
# Environment: DBT3_DATADIR (the instance, kept by the CI cache between jobs), DBT3_SF (scale
# factor of a first load, default 1), DBT3_MYSQLD (the reference build's server binary, default
# mariadbd on PATH), DBT3_HISTORY (the history store, default $DBT3_OUT/history.sqlite),
# DBT3_BUILD_ID (default: the server's version and SHA-256), DBT3_OUT (default ci-out),
# DBT3_RUN_ARGS (extra run options, default "--restarts 5").
# Exit: 0, or 1 when the newest result starts a regression (history check), or the failing
# step's exit code.
set -euo pipefail
dbt3stab=${DBT3STAB:-dbt3stab}
datadir=${DBT3_DATADIR:?set DBT3_DATADIR to the cached instance directory}
out=${DBT3_OUT:-ci-out}
history=${DBT3_HISTORY:-$out/history.sqlite}
mkdir -p "$out"
server=()
[ -n "${DBT3_MYSQLD:-}" ] && server+=(--mysqld "$DBT3_MYSQLD")

# The instance: made and loaded on the first night only (a second load of the same data is a
# no-op), so a cache hit skips both.
if [ ! -d "$datadir/data" ]; then
	mkdir -p "$(dirname "$datadir")" # server init makes the instance (docs/server.md)
	"$dbt3stab" server init --datadir "$datadir" "${server[@]}" -q
fi
"$dbt3stab" load -s "${DBT3_SF:-1}" --datadir "$datadir" "${server[@]}" -q

# The reference build measured: no -s, the scale factor comes from the loaded data.
rm -f "$out/result.json"
# shellcheck disable=SC2086
"$dbt3stab" run --datadir "$datadir" "${server[@]}" -o "$out/result.json" --no-table \
	${DBT3_RUN_ARGS:---restarts 5}

build=()
[ -n "${DBT3_BUILD_ID:-}" ] && build+=(--build-id "$DBT3_BUILD_ID")
"$dbt3stab" history add --db "$history" "${build[@]}" "$out/result.json"
rc=0
"$dbt3stab" history check --db "$history" --format junit -o "$out/history-junit.xml" || rc=$?
[ "$rc" -gt 1 ] && exit "$rc"
"$dbt3stab" history report --db "$history" -o "$out/trends.html"
echo "nightly: $out/result.json stored; JUnit $out/history-junit.xml; page $out/trends.html"
exit "$rc"
