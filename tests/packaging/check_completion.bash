#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The generated bash completion (scripts/gen-docs), sourced into this shell and asked the way
# bash asks it (COMP_WORDS, COMP_CWORD): commands, options, enumerated values, result files and
# directories. usage: check_completion.bash COMPLETION_FILE
set -u
# shellcheck disable=SC1090
source "$1" || exit 1
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/adir" "$tmp/bdir"
touch "$tmp/a.json" "$tmp/a.txt" "$tmp/afile"
cd "$tmp" || exit 1

# expect "WORDS ON THE LINE" "WANTED COMPLETIONS": the last word is the one completed.
expect() {
	local -a words
	read -r -a words <<<"$1"
	[[ $1 == *" " ]] && words+=("")
	COMP_WORDS=("${words[@]}")
	COMP_CWORD=$((${#words[@]} - 1))
	COMP_LINE=$1
	COMP_POINT=${#1}
	COMPREPLY=()
	_dbt3stab
	local got
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//')
	if [[ $got == "$2" ]]; then
		echo "ok: '$1' -> $got"
	else
		echo "FAIL: '$1' -> '$got', want '$2'"
		failures=$((failures + 1))
	fi
}

expect "dbt3stab r" "report run"
expect "dbt3stab compare --format " "html json junit markdown text"
expect "dbt3stab summary --format " "json markdown text"
expect "dbt3stab compare --method " "auto eb pooled welch"
expect "dbt3stab run --sca" "--scale"
expect "dbt3stab run --datadir " "adir bdir"
expect "dbt3stab compare a" "a.json adir"
expect "dbt3stab compare old.json a" "a.json adir"
expect "dbt3stab server s" "start status stop"
expect "dbt3stab help q" "queries query"
expect "dbt3stab --v" "--version"
expect "dbt3stab query --format " "json table tbl"
expect "dbt3stab run -o a" "a.json a.txt adir afile"
expect "dbt3stab history c" "check"
expect "dbt3stab history add a" "a.json adir"
exit $((failures > 0))
