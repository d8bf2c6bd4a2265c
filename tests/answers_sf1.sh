#!/usr/bin/env bash
# The slow test of the 22 query results: a private server in a temp dir on a free port, SF 1
# loaded by 'dbt3stab load', then tests/check_answers.sh against the official TPC-H SF 1 answers.
# Takes minutes of both CPUs (see README, "Tests"); ctest label slow.
# usage: tests/answers_sf1.sh DBT3STAB
# exit: 0 all 22 match, 1 setup failed (init, start, load), else check_answers.sh's code
set -u
bin=${1:?usage: tests/answers_sf1.sh DBT3STAB}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/dbt3-answers-XXXXXX")
chmod 711 "$work" # as root, the server runs as 'mysql' and must reach the instance in here
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
srv=(--datadir "$work/inst" --port "$port")
cleanup() {
  "$bin" server stop -q "${srv[@]}" > /dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
step() {
  local t0=$SECONDS
  "$@" || { echo "failed: $*"; exit 1; }
  echo "== $(( SECONDS - t0 )) s: ${*:2:2}"
}
step "$bin" server init -q "${srv[@]}"
step "$bin" server start -q --scale 1 "${srv[@]}"
step "$bin" load -s 1 -q "${srv[@]}"
t0=$SECONDS
"$here/check_answers.sh" "$bin" "${srv[@]}"
rc=$?
echo "== $(( SECONDS - t0 )) s: 22 queries checked (exit $rc)"
exit $rc
